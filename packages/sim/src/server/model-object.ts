import { SIMULATED_LABEL } from "../simulated-label.js";

/** A simulated model as GET /v1/models lists it. */
export function modelObject(id: string) {
  return {
    id,
    object: "model",
    created: 0,
    owned_by: "tfgrpo-sim",
    description: `${SIMULATED_LABEL}. Answers any request by reading its prompt; behaviour is picked from the request, not the name.`,
  };
}
