export {
  hashVector,
  type RecordedRequest,
  type ScriptedHandler,
  type ScriptedOpenAIServer,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedUsage,
  startScriptedOpenAIServer,
} from "./scripted-openai-server.js";
