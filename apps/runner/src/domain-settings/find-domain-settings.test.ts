import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { temporaryDirectory } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { findDomainSettings } from "./find-domain-settings.js";

async function importedFolder(root: string, name: string): Promise<string> {
  const folder = path.join(root, name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "test.jsonl"), "");
  await writeFile(path.join(folder, "shop.yaml"), "actor: {}\n");
  await writeFile(path.join(folder, "shop.critic.yaml"), "rewards: {}\n");
  return folder;
}

describe("findDomainSettings", () => {
  it("finds the files an import wrote beside the task file, and says so", async () => {
    await using root = await temporaryDirectory("tfgrpo-settings-");
    const folder = await importedFolder(root.path, "imported");
    const found = findDomainSettings({
      domain: "shop",
      dataFiles: [{ option: "--data", file: path.join(folder, "test.jsonl") }],
      env: {},
    });
    expect(found.actor).toEqual({ file: path.join(folder, "shop.yaml"), source: "beside --data" });
    expect(found.critic).toEqual({ file: path.join(folder, "shop.critic.yaml"), source: "beside --data" });
    expect(found.line).toBe(
      `settings of shop: actor ${path.join(folder, "shop.yaml")} (beside --data); critic ${path.join(folder, "shop.critic.yaml")} (beside --data)`,
    );
  });

  it("--settings wins over the environment, which wins over the files beside the tasks; the line names what lost", async () => {
    await using root = await temporaryDirectory("tfgrpo-settings-");
    const beside = await importedFolder(root.path, "beside");
    const given = await importedFolder(root.path, "given");
    const environment = path.join(root.path, "env-actor.yaml");
    await writeFile(environment, "actor: {}\n");
    const dataFiles = [{ option: "--train", file: path.join(beside, "test.jsonl") }];
    const flagged = findDomainSettings({
      domain: "shop",
      settings: given,
      dataFiles,
      env: { TFGRPO_ACTOR_CONFIG: environment },
    });
    expect(flagged.actor).toEqual({ file: path.join(given, "shop.yaml"), source: "--settings" });
    expect(flagged.line).toContain(
      `actor ${path.join(given, "shop.yaml")} (--settings, over ${environment} TFGRPO_ACTOR_CONFIG and ${path.join(beside, "shop.yaml")} beside --train)`,
    );
    const fromEnvironment = findDomainSettings({
      domain: "shop",
      dataFiles,
      env: { TFGRPO_ACTOR_CONFIG: environment },
    });
    expect(fromEnvironment.actor).toEqual({ file: environment, source: "TFGRPO_ACTOR_CONFIG" });
    // The critic's file is still the one beside the tasks: each role is decided on its own.
    expect(fromEnvironment.critic?.source).toBe("beside --train");
  });

  it("--settings FILE takes its partner beside it; a folder without the domain's files is refused", async () => {
    await using root = await temporaryDirectory("tfgrpo-settings-");
    const folder = await importedFolder(root.path, "imported");
    const found = findDomainSettings({
      domain: "other",
      settings: path.join(folder, "shop.critic.yaml"),
      dataFiles: [],
      env: {},
    });
    expect(found.actor?.file).toBe(path.join(folder, "shop.yaml"));
    expect(found.critic?.file).toBe(path.join(folder, "shop.critic.yaml"));
    expect(() => findDomainSettings({ domain: "other", settings: folder, dataFiles: [], env: {} })).toThrow(
      /--settings .*: no other\.yaml nor other\.critic\.yaml in this folder/,
    );
    expect(() =>
      findDomainSettings({
        domain: "shop",
        settings: path.join(root.path, "missing"),
        dataFiles: [],
        env: {},
      }),
    ).toThrow(/no such file or folder/);
  });

  it("nothing found, nothing said", () => {
    expect(findDomainSettings({ domain: "math", dataFiles: [], env: {} })).toEqual({});
  });
});
