import { describe, expect, it } from "vitest";
import * as protocol from "./index.js";
import { servedLibrarySnapshot, subjectTable } from "./subjects.js";
import { makeExperience } from "./testing/make-experience.js";

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

describe("subject table", () => {
  it("names every constant after its wire subject: tfgrpo.<role>.<operation> is <role><Operation>", () => {
    const exported = protocol as unknown as Record<string, unknown>;
    for (const [role, endpoints] of Object.entries(subjectTable)) {
      for (const [operation, subject] of Object.entries(endpoints)) {
        expect(subject.name).toBe(`tfgrpo.${role}.${operation}`);
        const constant = `${role}${operation.split("-").map(capitalize).join("")}`;
        expect(exported[constant], constant).toBe(subject);
      }
    }
  });

  it("lists every subject the package exports", () => {
    const inTable = new Set(Object.values(subjectTable).flatMap((endpoints) => Object.values(endpoints)));
    const exportedSubjects = Object.entries(protocol).filter(
      ([, value]) => typeof value === "object" && value !== null && "modes" in value && "name" in value,
    );
    expect(exportedSubjects.length).toBeGreaterThan(0);
    for (const [constant, subject] of exportedSubjects)
      expect(inTable.has(subject as never), constant).toBe(true);
  });
});

describe("tfgrpo.library.get", () => {
  it("serves a version's live entries: archived ones, which only accumulate over a run, are left out", () => {
    const snapshot = {
      domain: "math",
      version: 7,
      experiences: (["active", "archived", "candidate", "probation", "archived"] as const).map(
        (status, index) => makeExperience({ id: `G${index}`, status }),
      ),
    };
    expect(servedLibrarySnapshot(snapshot)?.experiences.map((entry) => entry.id)).toEqual(["G0", "G2", "G3"]);
    expect(servedLibrarySnapshot(snapshot)?.version).toBe(7);
    expect(servedLibrarySnapshot(null)).toBeNull();
  });
});
