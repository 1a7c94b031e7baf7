import { InvalidArgumentError } from "commander";

/** Parsers of numeric option values (commander's argParser): each rejects a bad value with one short reason. */

export const positiveInteger = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError("must be a positive integer");
  return parsed;
};

export const nonNegativeInteger = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError("must be a whole number >= 0");
  return parsed;
};

export const integer = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new InvalidArgumentError("must be an integer");
  return parsed;
};

export const positiveNumber = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new InvalidArgumentError("must be a positive number");
  return parsed;
};

/** A sampling temperature, as the OpenAI API accepts it. */
export const temperature = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 2)
    throw new InvalidArgumentError("must be between 0 and 2");
  return parsed;
};

export const probability = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1)
    throw new InvalidArgumentError("must be between 0 and 1");
  return parsed;
};
