/**
 * Rewards (in [0, 1]) and reward deltas closer than this are equal. Real rewards differ by at least a judge's
 * resolution (1/samples) or a verifier's step; anything below this is floating-point residue of sums and means
 * (0.75 - 0.7 - 0.05 is -4.2e-17), which must not read as "better" or "worse".
 */
export const rewardTolerance = 1e-9;
