export { type NatsServerHandle, startNatsServer } from "./start-nats-server.js";
