import { describe, expect, it } from 'vitest';
import { incompleteBeta, momentsOf, studentP, studentQuantile, tTest } from './student-t.js';

describe("Student's t-test", () => {
  it("gives the tables' two-sided p-values for their critical values", () => {
    expect(studentP(12.7062, 1)).toBeCloseTo(0.05, 6);
    expect(studentP(2.228139, 10)).toBeCloseTo(0.05, 6);
    expect(studentP(4.586894, 10)).toBeCloseTo(0.001, 7);
    // Many degrees of freedom: the normal distribution's 1 % point.
    expect(studentP(2.575829, 1e7)).toBeCloseTo(0.01, 6);
    expect(studentP(0, 5)).toBeCloseTo(1, 12);
  });

  it('has the incomplete beta function right where it is known in closed form', () => {
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 11);
    expect(incompleteBeta(0.5, 2, 2)).toBeCloseTo(0.5, 11);
    // I_x(a, 1) = x^a, on both sides of the continued fraction's switch.
    expect(incompleteBeta(0.2, 3, 1)).toBeCloseTo(0.008, 11);
    expect(incompleteBeta(0.9, 3, 1)).toBeCloseTo(0.729, 11);
  });

  it('finds two runs around one mean alike and a shifted run different', () => {
    const same = tTest(momentsOf([10, 11, 10, 9, 10, 11, 9]), momentsOf([10, 9, 11, 10, 10, 9, 11]));
    const shifted = tTest(momentsOf([10, 11, 10, 9, 10, 11, 9]), momentsOf([14, 15, 13, 14, 15, 13, 14]));
    expect(same).toBeGreaterThan(0.5);
    expect(shifted).toBeLessThan(1e-6);
  });

  it('calls two constant runs the same when equal and different when not, without dividing by zero', () => {
    expect(tTest(momentsOf([0, 0, 0, 0]), momentsOf([0, 0, 0]))).toBe(1);
    expect(tTest(momentsOf([0, 0, 0, 0]), momentsOf([1, 1, 1]))).toBe(0);
    expect(momentsOf([1, 2, 3])).toEqual({ n: 3, mean: 2, ss: 2 });
  });

  it("gives the tables' critical values of a two-sided interval back as quantiles", () => {
    // t tables: 95 % two-sided at 10 df is 2.228, at 54 df 2.005; 80 % at 10 df is 1.372; 99 % at 3 df is 5.841.
    expect(studentQuantile(0.95, 10)).toBeCloseTo(2.228, 3);
    expect(studentQuantile(0.95, 54)).toBeCloseTo(2.005, 3);
    expect(studentQuantile(0.8, 10)).toBeCloseTo(1.372, 3);
    expect(studentQuantile(0.99, 3)).toBeCloseTo(5.841, 3);
  });
});
