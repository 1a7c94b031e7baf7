import { diffStates } from "@tfgrpo/protocol";
import { describe, expect, it } from "vitest";
import { createRetailEnvironment } from "./retail-environment.js";
import { realRetailDb, realTau2Tasks } from "./retail-fixture.test-support.js";
import { retailGoldOf, toRetailTask } from "./retail-task.js";
import { applyStateChanges } from "./reward/apply-state-changes.js";

describe("a retail environment's changes since its reset", () => {
  it("are exactly the diff of the whole state against db.json, after every task's gold writes", () => {
    const initial = realRetailDb();
    const environment = createRetailEnvironment(initial);
    let changedTasks = 0;
    for (const tau2 of realTau2Tasks().values()) {
      const task = toRetailTask(tau2);
      environment.reset(task);
      expect(environment.changes()).toEqual([]);
      for (const action of retailGoldOf(task).actions) environment.call(action.name, action.arguments);
      const changes = environment.changes();
      expect(changes).toEqual(diffStates(initial, environment.state()));
      // What the reward rebuilds from a record without the final state is the state itself.
      expect(applyStateChanges(initial, changes)).toEqual(environment.state());
      if (changes.length > 0) changedTasks++;
    }
    expect(changedTasks).toBeGreaterThan(10);
  });

  it("see a record written back to its original value as no change, and a reset as none", () => {
    const initial = realRetailDb();
    const environment = createRetailEnvironment(initial);
    const [userId, user] = Object.entries(initial.users)[0]!;
    const address = user.address;
    const moved = { ...address, city: `${address.city} North` };
    const args = (to: typeof address) => ({ user_id: userId, ...to });
    expect(environment.call("modify_user_address", args(moved)).ok).toBe(true);
    expect(environment.changes()).toEqual([
      { path: `/users/${userId}/address/city`, op: "replace", before: address.city, after: moved.city },
    ]);
    expect(environment.call("modify_user_address", args(address)).ok).toBe(true);
    expect(environment.changes()).toEqual([]);
    environment.reset();
    expect(environment.changes()).toEqual([]);
  });
});
