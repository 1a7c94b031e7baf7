export { createHashedEmbed, hashedEmbedding } from "./hashed-embedding.js";
export { readRealLibrary, realExperiences } from "./real-libraries.js";
export {
  type ChatScript,
  createScriptedModels,
  finalMessage,
  type ScriptedCall,
  ScriptedChatModel,
  toolCallMessage,
} from "./scripted-chat-model.js";
