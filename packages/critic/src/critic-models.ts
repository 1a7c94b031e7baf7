import type { Models } from "@tfgrpo/models";

/** What the critic needs of `@tfgrpo/models`: it calls role "critic" (summaries, advantage) and "judge". */
export type CriticModels = Pick<Models, "structured" | "complete">;
