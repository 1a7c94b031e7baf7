/**
 * The ablation tag of `learn --direct-experiences` runs (run.config.ablation): `learn --resume` sends them to
 * runDirectExperiences, not to the learning graph.
 */
export const directExperiencesAblation = "direct-experiences";
