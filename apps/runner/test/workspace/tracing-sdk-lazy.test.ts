import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  importsOf,
  isTestFile,
  packageFiles,
  repositoryRoot,
  resolveRelative,
  workspacePackages,
} from "./source-imports.js";

/**
 * Tracing off costs nothing: product code depends on `@opentelemetry/api` only (a no-op until an SDK is registered).
 * The SDK and its exporters are imported by the tracing composition root alone, which `startTracing` loads with a
 * dynamic `import()` when tracing is on (and the metrics SDK by `startMetrics` when metrics are on). This test reads the sources, so it loads nothing.
 */
const sdkModules = [
  "apps/runner/src/tracing/tracing-sdk.ts",
  "apps/runner/src/tracing/jsonl-span-exporter.ts",
  "apps/runner/src/tracing/metrics-sdk.ts",
].map((file) => path.join(repositoryRoot, file));

const isSdkPackage = (specifier: string) =>
  specifier.startsWith("@opentelemetry/") && !specifier.startsWith("@opentelemetry/api");

describe("the OpenTelemetry SDK is loaded only when tracing is on", () => {
  const packages = workspacePackages();
  const productFiles = packages.flatMap((workspacePackage) =>
    packageFiles(workspacePackage.directory).filter((file) => !isTestFile(workspacePackage.directory, file)),
  );

  it("only the tracing composition root imports an SDK or exporter package", () => {
    const importers = productFiles.filter((file) =>
      importsOf(file).some((entry) => entry.kind === "static" && isSdkPackage(entry.specifier)),
    );
    expect(importers.map((file) => path.relative(repositoryRoot, file)).sort()).toEqual(
      sdkModules.map((file) => path.relative(repositoryRoot, file)).sort(),
    );
  });

  it("no product file reaches the composition root by a static import", () => {
    const reaching: string[] = [];
    for (const file of productFiles) {
      if (sdkModules.includes(file)) continue;
      for (const entry of importsOf(file)) {
        if (entry.kind !== "static" || !entry.specifier.startsWith(".")) continue;
        const target = resolveRelative(file, entry.specifier);
        if (target && sdkModules.includes(target)) reaching.push(path.relative(repositoryRoot, file));
      }
    }
    expect(reaching).toEqual([]);
    // And the one way in is the dynamic import in startTracing.
    const startTracing = path.join(repositoryRoot, "apps/runner/src/tracing/start-tracing.ts");
    expect(importsOf(startTracing)).toContainEqual({ specifier: "./tracing-sdk.js", kind: "dynamic" });
    const startMetrics = path.join(repositoryRoot, "apps/runner/src/tracing/start-metrics.ts");
    expect(importsOf(startMetrics)).toContainEqual({ specifier: "./metrics-sdk.js", kind: "dynamic" });
  });
});
