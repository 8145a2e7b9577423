// Enums are not stripped: this program goes through esbuild.
enum Status { Active = "active", Disabled = "disabled" }
interface User { id: number; status: Status }
const users: User[] = [{ id: 1, status: Status.Active }, { id: 2, status: Status.Disabled }];
return users.filter((u) => u.status === Status.Active).map((u) => u.id);
