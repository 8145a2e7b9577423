type Level = 'debug' | 'info' | 'warn' | 'error'
type Entry = { ts: Date; level: Level; msg: string; fields: Record<string, string> }

const raw = `2024-05-01T10:00:00Z info started port=8080
2024-05-01T10:00:01Z warn slow query ms=1200 table=users
2024-05-01T10:00:02Z error failed to connect host=db1`

const LINE = /^(\S+)\s+(debug|info|warn|error)\s+(.*)$/

function parse(line: string): Entry | undefined {
  const m = LINE.exec(line)
  if (!m) return undefined
  const [, ts, level, rest] = m
  const fields: Record<string, string> = {}
  const words = rest.split(' ').filter((w) => {
    const eq = w.indexOf('=')
    if (eq > 0) { fields[w.slice(0, eq)] = w.slice(eq + 1); return false }
    return true
  })
  return { ts: new Date(ts), level: level as Level, msg: words.join(' '), fields }
}

const entries = raw.split('\n').map(parse).filter((e): e is Entry => e !== undefined)
const counts = entries.reduce<Record<string, number>>((acc, e) => {
  acc[e.level] = (acc[e.level] ?? 0) + 1
  return acc
}, {})
return { counts, errors: entries.filter(e => e.level === 'error').map(e => e.fields.host) }
