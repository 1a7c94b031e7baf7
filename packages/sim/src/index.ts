export {
  defaultNoise,
  defaultPolicyBehaviour,
  type FallProbabilities,
  type PolicyBehaviour,
  quietNoise,
  type SimNoise,
  type SimNoiseOptions,
} from "./behaviour.js";
export { type ChatRequest, chatRequestSchema } from "./chat-request.js";
export {
  type City,
  type Company,
  type CorpusDocument,
  type CorpusWorld,
  createCorpusWorld,
  type Product,
} from "./corpus.js";
export { type CorpusSearchResult, formatSearchResults, htmlToText, searchCorpus } from "./corpus-search.js";
export { cosineSimilarity, defaultEmbeddingDimensions, embedText } from "./embeddings.js";
export {
  createFaultPlan,
  type Fault,
  type FaultConfig,
  type FaultKind,
  faultKinds,
  type LatencyDistribution,
  parseFaultSpec,
} from "./faults.js";
export { allPitfalls, getPitfall } from "./pitfalls/catalog.js";
export type { Pitfall } from "./pitfalls/pitfall.js";
export type { LessonReadingSpec } from "./policy/lesson-reading-spec.js";
export { type LessonEffect, type LessonReading, readLesson } from "./policy/read-lesson.js";
export { countTokens, createPromptCache, type PromptCache } from "./prompt-cache.js";
export {
  corpusPageUrl,
  createSimServer,
  type SimServer,
  type SimServerOptions,
  type SimServerStats,
} from "./server.js";
export { judgeAnswer, normalizeAnswer } from "./sim-judge.js";
export {
  classifyCall,
  createSimModel,
  type SimCallKind,
  type SimCompletion,
  type SimModel,
} from "./sim-model.js";
export {
  SIMULATED_LABEL,
  type SimModelName,
  simModelNames,
  simulated,
  simulatedHeader,
} from "./simulated-label.js";
export { type CreateSuiteOptions, createSuite } from "./suites/create-suite.js";
export { type SuiteSplit, suiteSplits } from "./suites/math.js";
export {
  corpusJsonl,
  servedCorpusUrl,
  writeCorpusFolder,
  writeCorpusJsonl,
  writeSuiteJsonl,
} from "./suites/write-suite-jsonl.js";
export { createWorld, type SimWorld, type TaskInstance } from "./world.js";
