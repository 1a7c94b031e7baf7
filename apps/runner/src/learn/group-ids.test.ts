import { expect, it } from "vitest";
import { evaluationGroupId, isTrainingGroupOf, trainingGroupId } from "./group-ids.js";

it("reads back the training groups it makes, and no other step's or run's", () => {
  const id = trainingGroupId("learn-1", 3, "task-7");
  expect(id).toBe("learn-1/s3/task-7");
  expect(isTrainingGroupOf(id, "learn-1", 3)).toBe(true);
  expect(isTrainingGroupOf(id, "learn-1", 31)).toBe(false);
  expect(isTrainingGroupOf(trainingGroupId("learn-1", 31, "task-7"), "learn-1", 3)).toBe(false);
  expect(isTrainingGroupOf(id, "learn-10", 3)).toBe(false);
  expect(
    isTrainingGroupOf(evaluationGroupId("learn-1", "validation", "math@v3", "task-7"), "learn-1", 3),
  ).toBe(false);
});
