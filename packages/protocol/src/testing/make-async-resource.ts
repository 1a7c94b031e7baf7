/**
 * Makes `thing` disposable with `await using` (tRPC's test helper of the same name): `dispose` runs when the
 * enclosing block ends, however it ends, before any disposer `thing` already had.
 */
export function makeAsyncResource<T extends object>(
  thing: T,
  dispose: () => Promise<void>,
): T & AsyncDisposable {
  const resource = thing as T & AsyncDisposable;
  const existing = resource[Symbol.asyncDispose];
  resource[Symbol.asyncDispose] = async () => {
    await dispose();
    await existing?.call(resource);
  };
  return resource;
}
