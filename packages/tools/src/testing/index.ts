export { createScriptedCodeInterpreter } from "./create-scripted-code-interpreter.js";
export { fixtureCorpusDocuments } from "./fixture-corpus.js";
export { postMcpInitialize } from "./post-mcp-initialize.js";
export { type CorpusServer, startCorpusServer } from "./start-corpus-server.js";
