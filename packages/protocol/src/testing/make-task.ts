import type { Task } from "../schemas/task.js";

/**
 * A Task record for tests, a math question with its answer unless overridden. `answer: undefined` removes the
 * answer: a task without ground truth.
 */
export function makeTask(overrides: Partial<Task> = {}): Task {
  const task: Task = {
    id: "task-1",
    domain: "math",
    question: "How many integers n satisfy 3 <= n <= 10?",
    answer: "8",
    ...overrides,
  };
  if (task.answer === undefined) delete task.answer;
  return task;
}
