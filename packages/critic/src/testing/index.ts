export {
  type FakeCriticModels,
  type FakeModelAnswer,
  type FakeModelCall,
  fakeCriticModels,
} from "./fake-critic-models.js";
export { type MathVerifierCase, mathVerifierCases } from "./math-verifier-cases.js";
