export {
  measureRolloutRate,
  measureStartups,
  type RolloutRate,
  rateColumns,
} from "./environment-bench.js";
export { createHashedEmbed, hashedEmbedding } from "./hashed-embedding.js";
export { makespan } from "./makespan.js";
export { readRealLibrary, realExperiences } from "./real-libraries.js";
export {
  type ChatScript,
  createScriptedModels,
  finalMessage,
  type ScriptedCall,
  ScriptedChatModel,
  toolCallMessage,
} from "./scripted-chat-model.js";
