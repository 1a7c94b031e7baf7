export { createHashedEmbed, hashedEmbedding } from "./hashed-embedding.js";
export { makeExperience, readRealLibrary, realExperiences, sharedDataDir } from "./real-libraries.js";
