import type { ConsumerConfig } from "@nats-io/jetstream";
import { realignConsumer } from "./nats-jetstream-setup.js";
import type { NatsQueueContext } from "./nats-queue-context.js";

const tries = 5;
const pauseMs = 1000;

/**
 * Checks a durable consumer against its stream now and after every reconnect (`realignConsumer`): a server that
 * restarted may have lost the tail of a stream while its consumer remembers delivering it. Returns the function
 * that stops watching. `onRealigned` is called when the consumer was made again: a pull still open on the old one
 * is never answered, so the caller starts a new one.
 */
export async function alignConsumerAcrossRestarts(
  context: NatsQueueContext,
  stream: string,
  config: Partial<ConsumerConfig>,
  onRealigned: () => void,
): Promise<() => void> {
  let stopped = false;
  const align = async () => {
    // Right after a reconnect JetStream may still be recovering its streams: a few tries, a second apart.
    for (let attempt = 1; attempt <= tries && !stopped; attempt++) {
      try {
        if (await realignConsumer(context.jsm, stream, config, context.logger)) onRealigned();
        return;
      } catch (error) {
        if (attempt === tries) {
          context.logger.warn(
            `consumer ${stream}/${config.durable_name}: not checked against its stream (${(error as Error).message})`,
          );
        } else {
          // Unref'd: a check still pending never keeps a closed process alive.
          await new Promise((resolve) => setTimeout(resolve, pauseMs).unref());
        }
      }
    }
  };
  await align();
  const unsubscribe = context.connection.onReconnect(() => void align());
  return () => {
    stopped = true;
    unsubscribe();
  };
}
