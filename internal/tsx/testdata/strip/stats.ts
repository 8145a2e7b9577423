const values: number[] = Array.from({ length: 50 }, (_, i) => Math.sin(i) * 10 + i);

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: number[], m: number = mean(xs)) => xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

function percentile(xs: number[], p: number): number {
  if (p < 0 || p > 100) throw new RangeError(`bad percentile ${p}`);
  const s = [...xs].sort((a, b) => a - b);
  const idx = (p / 100) * (s.length - 1);
  const lo = Math.floor(idx), hi = Math.ceil(idx);
  return s[lo] + (s[hi] - s[lo]) * (idx - lo);
}

const m = mean(values);
return {
  mean: +m.toFixed(3),
  sd: +Math.sqrt(variance(values, m)).toFixed(3),
  median: median(values),
  p90: percentile(values, 90),
};
