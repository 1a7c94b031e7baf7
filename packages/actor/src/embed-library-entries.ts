import type { EmbeddingCache, Experience } from "@tfgrpo/protocol";
import type { CreateExperienceIndexOptions } from "./experience-index.js";

export type LibraryEmbeddings = Required<
  Pick<CreateExperienceIndexOptions, "embeddingOf" | "whenNotEmbeddingOf">
>;

/**
 * The embeddings an experience index needs, in one embedding call: each live entry's text and, for entries that
 * have one, its `scope.whenNot` clause (retrieval leaves an entry out of tasks close to that clause). Throws what
 * the embedder throws: callers decide whether to rank without similarity.
 */
export async function embedLibraryEntries(
  embeddings: EmbeddingCache,
  experiences: readonly Experience[],
): Promise<LibraryEmbeddings> {
  const live = experiences.filter((experience) => experience.status !== "archived");
  const scoped = live.filter((experience) => experience.scope?.whenNot);
  const list = await embeddings.embed([
    ...live.map((experience) => experience.text),
    ...scoped.map((experience) => experience.scope!.whenNot!),
  ]);
  const text = new Map(live.map((experience, index) => [experience.id, list[index]!]));
  const whenNot = new Map(scoped.map((experience, index) => [experience.id, list[live.length + index]!]));
  return {
    embeddingOf: (experience) => text.get(experience.id),
    whenNotEmbeddingOf: (experience) => whenNot.get(experience.id),
  };
}
