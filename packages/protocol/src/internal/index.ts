// Helpers shared with sibling packages that implement the Bus (@tfgrpo/bus-nats); not for roles or apps.
export { validatePayload } from "../bus/validate-payload.js";
