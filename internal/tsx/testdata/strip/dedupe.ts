```ts
interface Contact {
  email: string
  name?: string
  phones: string[]
}

const contacts: Contact[] = await tools.crm.list_contacts({ limit: 500 })

const norm = (e: string) => e.trim().toLowerCase()
const byEmail = new Map<string, Contact>()
let merged = 0

for (const c of contacts) {
  const key = norm(c.email)
  const prev = byEmail.get(key)
  if (prev) {
    merged++
    prev.name ||= c.name
    prev.phones = [...new Set([...prev.phones, ...c.phones])]
  } else {
    byEmail.set(key, { ...c, email: key })
  }
}

return { before: contacts.length, after: byEmail.size, merged }
```
