// The team's customer-service agent on τ²-bench retail: LangChain's createAgent with ChatOpenAI, the store's tools
// from the attempt's environment, and tfgrpo's experienceMiddleware.
//
//   tfgrpo data import test-data/tau2-bench-retail --preset tau2-retail --out-dir data/retail
//   tfgrpo learn --agent examples/agents/tau2-retail-agent.mjs --domain tau2-retail --settings data/retail \
//     --train data/retail/train.jsonl --val data/retail/test.jsonl --sim
//   tfgrpo eval  --agent examples/agents/tau2-retail-agent.mjs --domain tau2-retail --settings data/retail \
//     --data data/retail/test.jsonl --k 4 --library none --library tau2-retail@head --sim
//
// A createAgent agent binds its tools when it is built, and each attempt has its own store (its own MCP session or
// process, reset for the task): so the module exports a function that tfgrpo calls per attempt with that attempt's
// tools, and returns the agent. tfgrpo then plays the customer (its `user` role) turn by turn, and scores the
// attempt on the store's final state. The model is the team's: OPENAI_BASE_URL / OPENAI_API_KEY / AGENT_MODEL; with
// `--sim`, tfgrpo sets SIM_PORT and the agent talks to the SIMULATED model server.
import { readFile } from "node:fs/promises";
import { ChatOpenAI } from "@langchain/openai";
import { experienceMiddleware } from "@tfgrpo/langgraph";
import { createAgent } from "langchain";

const model = new ChatOpenAI({
  model: process.env.AGENT_MODEL ?? "sim-actor",
  apiKey: process.env.OPENAI_API_KEY ?? "sim",
  configuration: {
    baseURL: process.env.OPENAI_BASE_URL ?? `http://127.0.0.1:${process.env.SIM_PORT ?? 8787}/v1`,
  },
});

// The store's policy, when the team keeps it beside the agent (RETAIL_POLICY=data/retail/policy.md).
const policy = process.env.RETAIL_POLICY ? await readFile(process.env.RETAIL_POLICY, "utf8") : "";

const systemPrompt = [
  "You are a customer-service agent of an online retail store. Help the customer with their orders using the tools.",
  "Authenticate the customer first, check an order's status before changing it, state every change and ask for an",
  "explicit yes before making it, and tell the customer the exact figures.",
  policy ? `<policy>\n${policy}\n</policy>` : "",
].join("\n");

// Offline (tfgrpo learn/eval) the middleware takes each attempt's experiences from tfgrpo: no library needed here.
const experience = experienceMiddleware({ domain: "tau2-retail" });

/** Called by tfgrpo for each attempt: `tools` are the store's tools, bound to this attempt's own database. */
export function agent({ tools }) {
  return createAgent({ model, tools, systemPrompt, middleware: [experience] });
}
