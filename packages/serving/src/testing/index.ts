export { type MiddlewareBenchOptions, runMiddlewareBench } from "./run-middleware-bench.js";
export {
  type SimLibraryWorld,
  type SimLibraryWorldOptions,
  startSimLibraryWorld,
} from "./sim-library-world.js";
