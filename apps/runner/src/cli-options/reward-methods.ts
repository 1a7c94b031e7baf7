/** The methods `tfgrpo reward <method>` scores with (kept light: the command's help lists them). */
export const rewardMethods = ["math", "exact", "contains", "module"] as const;
