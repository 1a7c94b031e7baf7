import { readRealLibrary } from "@tfgrpo/protocol/testing";
import { describe, expect, it } from "vitest";
import { allPitfalls, classifyText, genericLessons } from "./catalog.js";
import { matchConcept } from "./concept.js";

function realLibrary(name: "math" | "web"): string[] {
  return Object.values(readRealLibrary(name));
}

describe("pitfall concepts", () => {
  for (const pitfall of allPitfalls) {
    describe(pitfall.id, () => {
      it("good lessons and merged phrasings help", () => {
        for (const text of [...pitfall.lessons, ...pitfall.merged]) {
          expect(matchConcept(pitfall.concept, text), text).toMatchObject({
            matched: true,
            direction: "helps",
          });
        }
      });
      it("opposite lessons hurt", () => {
        for (const text of pitfall.opposite) {
          expect(matchConcept(pitfall.concept, text), text).toMatchObject({
            matched: true,
            direction: "hurts",
          });
        }
      });
      it("vague lessons name the concept without a direction", () => {
        for (const text of pitfall.vague) {
          expect(matchConcept(pitfall.concept, text), text).toMatchObject({
            matched: true,
            direction: "neutral",
          });
        }
      });
      it("the policy's approach sentences classify the way it went", () => {
        expect(matchConcept(pitfall.concept, pitfall.approach.fallen).direction).toBe("hurts");
        expect(matchConcept(pitfall.concept, pitfall.approach.avoided).direction).toBe("helps");
        expect(matchConcept(pitfall.concept, pitfall.error).matched).toBe(true);
      });
      it("every lesson is at most 32 words", () => {
        for (const text of [...pitfall.lessons, ...pitfall.opposite, ...pitfall.merged]) {
          expect(text.split(/\s+/).length, text).toBeLessThanOrEqual(32);
        }
      });
    });
  }

  it("a pitfall's own texts are classified as that pitfall first", () => {
    for (const pitfall of allPitfalls) {
      for (const text of [...pitfall.lessons, ...pitfall.opposite, ...pitfall.merged, pitfall.error]) {
        expect(classifyText(text)[0]?.pitfall.id, text).toBe(pitfall.id);
      }
    }
  });

  it("a lesson about one pitfall does not help or hurt another", () => {
    for (const pitfall of allPitfalls) {
      for (const other of allPitfalls) {
        if (other === pitfall) continue;
        for (const text of [...pitfall.lessons, ...pitfall.merged, ...pitfall.opposite]) {
          expect(matchConcept(other.concept, text).direction, `${other.id} <- ${text}`).toBe("neutral");
        }
      }
    }
  });

  it("generic advice addresses no pitfall", () => {
    for (const text of [...genericLessons.math, ...genericLessons.web])
      expect(classifyText(text), text).toEqual([]);
  });

  it("negation flips the direction", () => {
    const [range] = allPitfalls;
    expect(
      matchConcept(range!.concept, "Do not exclude the endpoints when counting a range.").direction,
    ).toBe("helps");
    expect(matchConcept(range!.concept, "Don't include the endpoints when counting a range.").direction).toBe(
      "hurts",
    );
  });

  it("reads the real DeepSeek libraries the way a model would", () => {
    const touched = (name: "math" | "web") =>
      realLibrary(name).flatMap((line) =>
        classifyText(line)
          .filter((c) => c.match.direction !== "neutral")
          .map((c) => `${c.pitfall.id}:${c.match.direction}`),
      );
    // Only one real math line speaks to a sim math pitfall (real roots by separating real and imaginary parts).
    expect(touched("math")).toEqual(["discriminant:helps"]);
    // Several real web lessons genuinely say "verify on primary sources" / "prefer the most recent": none points the wrong way.
    const web = touched("web");
    expect(web.length).toBeGreaterThan(0);
    expect(
      web.every(
        (entry) =>
          entry.endsWith(":helps") &&
          !/^(range|bounded|discriminant|repeated|intermediate|successive|negative|weighted)/.test(entry),
      ),
    ).toBe(true);
  });
});
