import { InvalidArgumentError } from 'commander';

/** A commander parser for whole numbers ≥ `min`, with the expected form in its error. */
export function integerAtLeast(min: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(number) || number < min) {
      throw new InvalidArgumentError(`expected a whole number ≥ ${min}, got '${value}'.`);
    }
    return number;
  };
}
