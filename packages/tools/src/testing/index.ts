export { createScriptedCodeInterpreter } from "./create-scripted-code-interpreter.js";
export { fixtureCorpusDocuments } from "./fixture-corpus.js";
export { type CorpusServer, startCorpusServer } from "./start-corpus-server.js";
