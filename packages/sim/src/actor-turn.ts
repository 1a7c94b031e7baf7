/** A tool call the simulated actor makes, in the OpenAI chat shape. */
export interface SimToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One turn of the simulated actor: a message, tool calls, or both. */
export interface ActorTurn {
  content: string | null;
  toolCalls: SimToolCall[];
}

/** A tool call of the conversation so far and what it returned (null: no result yet). */
export interface ToolExchange {
  name: string;
  arguments: string;
  output: string | null;
}
