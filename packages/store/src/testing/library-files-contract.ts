import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { add, at, type LibraryTestStore, seedThreeEntries } from "./contract-helpers.js";
import { expectTfgrpoError } from "./fixtures.js";
import { realLibraryPath } from "./real-libraries.js";

/** Export and import in every format, round trips, the real youtu-agent libraries, malformed files. */
export function libraryFilesContract(createFresh: () => Promise<LibraryTestStore>): void {
  describe("export and import", () => {
    let store: LibraryTestStore;
    beforeEach(async () => {
      store = await createFresh();
    });
    afterEach(async () => {
      await store.close();
    });
    const seedLibrary = (domain?: string) => seedThreeEntries(store, domain);

    /** A library with every feature an export must carry: statuses, scope, conflict group, stats, history. */
    async function richLibrary(domain = "math") {
      await seedLibrary(domain);
      await store.applyOperations(
        domain,
        [
          {
            op: "merge",
            ids: ["G0", "G1"],
            text: "Check units; enumerate small cases.",
            reason: "overlap",
          },
          add("  Leading spaces, and a trailing newline\n"),
          add("## G9 is not a heading\n```python\nprint('not a fence')\n```\n# nor a title"),
          add("Windows line\r\nendings"),
          add('Unicode φ(N/d) — ✓ and "quotes" and <tags> and `code`', { status: "active" }),
          add("Two paragraphs.\n\nThe second one.", { scope: { whenNot: "never" } }),
        ],
        { parent: 1, state: "committed", runId: "run-7", now: at(2) },
      );
      await store.updateStats(domain, [
        { id: "G3", shown: 10, success: 7, sumDelta: 1.5, lastUsedVersion: 2 },
        { id: "G2", shown: 2, success: 0.5, sumDelta: -0.75, lastUsedVersion: 1 },
      ]);
      return (await store.getHead(domain))!;
    }

    for (const format of ["json", "markdown"] as const) {
      it(`${format}: export -> import into a new library round-trips exactly`, async () => {
        const original = await richLibrary();
        const exported = await store.exportLibrary("math", { format });
        const target = await createFresh();
        try {
          const result = await target.importLibrary("math", {
            text: exported,
            file: `math.${format === "json" ? "json" : "md"}`,
          });
          expect(result).toMatchObject({
            format,
            preservedIds: true,
            entries: original.experiences.length,
          });
          expect(Object.entries(result.ids).every(([from, to]) => from === to)).toBe(true);
          const imported = (await target.getHead("math"))!;
          expect(imported.experiences).toEqual(original.experiences);
          const again = await target.exportLibrary("math", { format });
          const version = (text: string) => text.replace(/"version": \d+/, "").replace(/version \d+/, "");
          expect(version(again)).toBe(version(exported));
          // Ids handed out by the file are taken: the next new entry continues after them.
          const next = await target.applyOperations("math", [add("next")], {
            parent: imported.version,
            state: "committed",
          });
          expect(next.createdIds).toEqual([`G${original.experiences.length}`]);
        } finally {
          await target.close();
        }
      });
    }

    it("import --replace restores exactly: export -> replace into a fresh store -> export is identical", async () => {
      await richLibrary();
      const exported = await store.exportLibrary("math", { format: "json" });
      const target = await createFresh();
      try {
        const result = await target.importLibrary("math", {
          text: exported,
          file: "backup.json",
          replace: true,
        });
        const head = (await store.getHead("math"))!;
        expect(result).toMatchObject({ preservedIds: true, entries: head.experiences.length });
        // The version number of the backup too: references like math@v2 stay true after a restore.
        expect(result.version.version).toBe(head.version);
        expect(await target.exportLibrary("math", { format: "json" })).toBe(exported);
      } finally {
        await target.close();
      }
    });

    it("import --replace over a changed head commits a version equal to the file, never reusing an id", async () => {
      const original = await richLibrary();
      const backup = await store.exportLibrary("math", { format: "json" });
      await store.applyOperations(
        "math",
        [add("added after the backup"), { op: "delete", id: "G3", reason: "r" }],
        {
          parent: original.version,
          state: "committed",
        },
      );
      const restored = await store.importLibrary("math", {
        text: backup,
        file: "backup.json",
        replace: true,
      });
      expect(restored.version.parent).toBe(original.version + 1);
      const head = (await store.getHead("math"))!;
      expect(head.version).toBe(restored.version.version);
      expect(head.experiences).toEqual(original.experiences);
      // The entry added after the backup is left out of the restored version; its id is never handed out again.
      const next = await store.applyOperations("math", [add("new")], {
        parent: head.version,
        state: "committed",
      });
      expect(next.createdIds[0]).not.toBe(`G${original.experiences.length}`);

      // A file that names an id the domain handed out for an entry no longer in the head is refused whole.
      const other = await createFresh();
      try {
        const first = await other.importLibrary("math", { text: backup, file: "backup.json", replace: true });
        const extra = await other.applyOperations("math", [add("an entry the backup does not have")], {
          parent: first.version.version,
          state: "committed",
        });
        const handedOut = extra.createdIds[0]!;
        await other.importLibrary("math", { text: backup, file: "backup.json", replace: true });
        const before = await other.getHeadVersion("math");
        const parsed = JSON.parse(backup) as { experiences: { id: string; text: string }[] };
        const reusing = {
          ...parsed,
          experiences: [
            ...parsed.experiences,
            { ...parsed.experiences[0]!, id: handedOut, text: "something else" },
          ],
        };
        const error = await expectTfgrpoError(
          other.importLibrary("math", { text: JSON.stringify(reusing), file: "edited.json", replace: true }),
          "conflict",
        );
        expect(error.message).toContain(`${handedOut} was handed out before in math`);
        expect(await other.getHeadVersion("math")).toBe(before);
      } finally {
        await other.close();
      }
    });

    it("plain: imports the real youtu-agent libraries and exports them back byte for byte", async () => {
      for (const [name, count] of [
        ["math", 27],
        ["web", 46],
      ] as const) {
        const file = realLibraryPath(name);
        const text = readFileSync(file, "utf8");
        const result = await store.importLibrary(name, { text, file, now: at(1) });
        expect(result).toMatchObject({ format: "plain", preservedIds: true, entries: count });
        const head = (await store.getHead(name))!;
        expect(head.experiences).toHaveLength(count);
        expect(head.experiences.every((e) => e.status === "active")).toBe(true);
        expect(head.experiences[0]!.history).toEqual([
          {
            at: at(1).toISOString(),
            version: 1,
            from: null,
            to: "active",
            reason: `imported from ${name}.json (G0)`,
          },
        ]);
        expect(await store.exportLibrary(name, { format: "plain" })).toBe(text);
        // And through the other two formats as well.
        for (const format of ["json", "markdown"] as const) {
          const exported = await store.exportLibrary(name, { format });
          const copy = await createFresh();
          try {
            await copy.importLibrary(name, { text: exported, file: `${name}.${format}` });
            expect(await copy.exportLibrary(name, { format: "plain" })).toBe(text);
            expect((await copy.getHead(name))!.experiences).toEqual(head.experiences);
          } finally {
            await copy.close();
          }
        }
      }
    });

    it("plain export leaves archived entries out", async () => {
      await richLibrary();
      const plain = JSON.parse(await store.exportLibrary("math", { format: "plain" })) as Record<
        string,
        string
      >;
      expect(Object.keys(plain)).toEqual(["G2", "G3", "G4", "G5", "G6", "G7", "G8"]);
    });

    it("importing into a library that has handed out ids gives fresh ids and reports the mapping", async () => {
      await seedLibrary();
      const result = await store.importLibrary("math", {
        text: JSON.stringify({ G0: "Imported zero.", G5: "Imported five." }),
        file: "other.json",
        defaultStatus: "candidate",
        now: at(3),
      });
      expect(result).toMatchObject({ preservedIds: false, ids: { G0: "G3", G5: "G4" }, entries: 2 });
      expect(result.version).toMatchObject({ version: 2, parent: 1, state: "committed" });
      expect(result.version.ops).toEqual([
        { op: "add", text: "Imported zero.", status: "candidate", reason: "imported from other.json (G0)" },
        { op: "add", text: "Imported five.", status: "candidate", reason: "imported from other.json (G5)" },
      ]);
      const head = (await store.getHead("math"))!;
      expect(head.experiences.map((e) => [e.id, e.text, e.status])).toEqual([
        ["G0", "Check units before answering.", "candidate"],
        ["G1", "Enumerate small cases with code first.", "active"],
        ["G2", "Prefer exact fractions over floats.", "probation"],
        ["G3", "Imported zero.", "candidate"],
        ["G4", "Imported five.", "candidate"],
      ]);
    });

    it("keeps gaps in imported ids and never hands the skipped ids out later", async () => {
      await store.importLibrary("math", {
        text: JSON.stringify({ G2: "two", G7: "seven" }),
        file: "gaps.json",
      });
      const next = await store.applyOperations("math", [add("next")], { parent: 1, state: "committed" });
      expect(next.createdIds).toEqual(["G8"]);
    });

    const malformed: Array<{ file: string; text: string; expected: RegExp[] }> = [
      {
        file: "broken.json",
        text: '{"G0": "fine", "G1": ',
        expected: [/^cannot import broken\.json, nothing changed: broken\.json: invalid JSON/],
      },
      {
        file: "plain.json",
        text: JSON.stringify({ G0: "fine", G1: 42, X7: "bad id", G3: "  " }),
        expected: [
          /plain\.json: entry "G1" field "text": expected a non-empty string, got number/,
          /plain\.json: entry "X7" field "id": experience ids look like G0/,
          /plain\.json: entry "G3" field "text": expected a non-empty string, got an empty string/,
        ],
      },
      {
        file: "full.json",
        text: JSON.stringify({
          format: "tfgrpo-library",
          formatVersion: 1,
          domain: "math",
          version: 3,
          experiences: [
            { id: "G0" },
            {
              id: "G1",
              domain: "math",
              text: "t",
              status: "retired",
              stats: { shown: 0, success: 0, sumDelta: 0, lastUsedVersion: null },
              provenance: { runId: null, version: 1, fromOps: [] },
              history: [],
              createdAt: "x",
              updatedAt: "x",
            },
          ],
        }),
        expected: [
          /full\.json: entry G0 \(experiences\[0\]\) field "text"/,
          /full\.json: entry G1 \(experiences\[1\]\) field "status"/,
        ],
      },
      {
        file: "notes.md",
        text: [
          "# Experience library",
          "",
          "## G0",
          "",
          "Fine text.",
          "",
          "## G1",
          "",
          "Text with bad metadata.",
          "",
          "```json tfgrpo-entry",
          '{"status": "retired", "stats": {"shown": -1, "success": 0, "sumDelta": 0, "lastUsedVersion": null}}',
          "```",
          "",
          "## Gx",
          "",
          "## G3",
          "",
          "```json tfgrpo-entry",
          '{"staus": "active"}',
          "```",
        ].join("\n"),
        expected: [
          /notes\.md:11: entry G1 field "status": /,
          /notes\.md:11: entry G1 field "stats\.shown": /,
          /notes\.md:15: entry Gx field "id": heading must be "## G<n>"/,
          /notes\.md:19: entry G3 field "metadata": Unrecognized key.*: staus/,
        ],
      },
    ];

    for (const { file, text, expected } of malformed) {
      it(`refuses malformed ${file} whole, naming file, entry and field, and changes nothing`, async () => {
        await seedLibrary();
        const versions = await store.listVersions("math");
        const domains = await store.listDomains();
        const error = await expectTfgrpoError(store.importLibrary("math", { text, file }), "invalid_input");
        for (const pattern of expected) expect(error.message).toMatch(pattern);
        expect(error.details?.file).toBe(file);
        expect(await store.listVersions("math")).toEqual(versions);
        expect(await store.listDomains()).toEqual(domains);
        await expectTfgrpoError(store.importLibrary("newdomain", { text, file }), "invalid_input");
        expect(await store.listDomains()).toEqual(domains);
      });
    }

    it("reads hand-written Markdown: sections without metadata get the import defaults", async () => {
      const text = [
        "# My lessons",
        "",
        "Some notes that are not entries.",
        "",
        "## G0",
        "",
        "Check the units.",
        "",
        "## G1 (my favourite)",
        "",
        "Enumerate small cases.",
        "Then generalise.",
        "",
        "```json tfgrpo-entry",
        '{"status": "probation", "conflictGroup": "style"}',
        "```",
        "",
      ].join("\n");
      const result = await store.importLibrary("math", { text, file: "lessons.md", now: at(1) });
      expect(result.format).toBe("markdown");
      const head = (await store.getHead("math"))!;
      expect(head.experiences.map((e) => [e.id, e.text, e.status, e.conflictGroup])).toEqual([
        ["G0", "Check the units.", "active", undefined],
        ["G1", "Enumerate small cases.\nThen generalise.", "probation", "style"],
      ]);
    });

    it("exporting a library or version that does not exist fails with not_found", async () => {
      await expectTfgrpoError(store.exportLibrary("math", { format: "json" }), "not_found");
      await seedLibrary();
      await expectTfgrpoError(store.exportLibrary("math", { format: "json", version: 5 }), "not_found");
      const v1 = await store.exportLibrary("math", { format: "json", version: 1 });
      expect(JSON.parse(v1)).toMatchObject({ format: "tfgrpo-library", domain: "math", version: 1 });
    });
  });
}
