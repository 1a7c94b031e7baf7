/** A request the sim server refuses: answered with `status` and an OpenAI-style error body of `type`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}
