type Matrix = number[][];

const identity = (n: number): Matrix =>
  Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));

function multiply(a: Matrix, b: Matrix): Matrix {
  const rows = a.length, cols = b[0].length, inner = b.length;
  const out: Matrix = Array.from({ length: rows }, () => new Array<number>(cols).fill(0));
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++)
      for (let k = 0; k < inner; k++) out[i][j] += a[i][k] * b[k][j];
  return out;
}

let m: Matrix = [[1, 1], [1, 0]];
let result: Matrix = identity(2);
for (let n = 10; n > 0; n >>= 1) {
  if (n & 1) result = multiply(result, m);
  m = multiply(m, m);
}
return { fib10: result[0][1] };
