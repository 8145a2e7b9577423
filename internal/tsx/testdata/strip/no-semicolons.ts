const items = await tools.inventory.list({})
let low = 0
const names: string[] = []
type Item = { name: string, qty: number }
for (const it of items as Item[]) {
  if (it.qty < 5) low++
  names.push(it.name)
}
interface Summary { low: number, names: string[] }
const summary: Summary = { low, names }
;[1, 2, 3].forEach((n) => console.log(n))
return summary
