import type { OutcomeStore } from "@tfgrpo/store";

export interface RewardBaseline {
  /** The mean reward of the domain's recent outcomes; undefined before the first one. */
  get(domain: string): Promise<number | undefined>;
  /** Adds an outcome just stored. */
  add(domain: string, reward: number): void;
}

/**
 * The online stand-in for "the mean reward of the rollout's group": live traffic has no group of G attempts, so an
 * outcome is compared with the mean of the domain's last `window` rewards (seed 002's `reward - baseline_reward`).
 * Read from the store once per domain, then kept up to date in memory from this process's reports (other processes'
 * reports reach it at the next start: a baseline, not an account).
 */
export function createRewardBaseline(store: OutcomeStore, window = 100): RewardBaseline {
  const recent = new Map<string, Promise<number[]>>();
  const load = (domain: string) => {
    let rewards = recent.get(domain);
    if (!rewards) {
      rewards = store
        .listOutcomes({ domain, latest: window })
        .then((outcomes) => outcomes.map((o) => o.reward));
      recent.set(domain, rewards);
      rewards.catch(() => recent.delete(domain));
    }
    return rewards;
  };
  return {
    async get(domain) {
      const rewards = await load(domain);
      if (rewards.length === 0) return undefined;
      let sum = 0;
      for (const reward of rewards) sum += reward;
      return sum / rewards.length;
    },
    add(domain, reward) {
      void load(domain).then((rewards) => {
        rewards.push(reward);
        if (rewards.length > window) rewards.splice(0, rewards.length - window);
      });
    },
  };
}
