interface Billing_ChargeInput {
  /**
   * Amount in the smallest currency unit
   * @minimum 1
   */
  amount: number;
  /**
   * @pattern ^[A-Z]{3}$
   * @example "EUR"
   * @example "USD"
   */
  currency: string;
  /** How to pay */
  method: {
    kind: "card";
    number: string;
    /**
     * @minLength 3
     * @maxLength 4
     */
    cvc?: string;
    /** @pattern ^\d{2}/\d{2}$ */
    expiry: string;
  } | { kind: "sepa"; iban: string } | {
    kind: "wallet";
    provider: "apple" | "google";
    token: string;
  };
  customer?: Billing_Charge_Party & { vip?: boolean };
  reference?: string;
  /** @default null */
  note?: string | null;
  /** Free-form metadata */
  metadata?: Record<string, string> | null;
  /** @default true */
  capture?: boolean;
}

interface Billing_Charge_Party {
  id?: string;
  /** @format email */
  email?: string;
}

type Billing_ChargeOutput = { status: "succeeded"; charge_id: string } | {
  status: "failed";
  error: { code: string; message?: string };
};

/** Needs exactly one of: `id` | `email`. */
interface Billing_FindCustomerInput {
  id?: string;
  /** @format email */
  email?: string;
}

type Billing_FindCustomerOutput = {
  id: string;
  name?: string;
} | null;

type Billing_RefundInput = {
  charge_id: string;
  reason?: Billing_Refund_Reason;
} & ({ amount: number } | { full: true });

type Billing_Refund_Reason = "duplicate" | "fraudulent" | "requested_by_customer";

declare const tools: {
  billing: {
    /**
     * Charge a customer.
     * @remarks Needs approval before it runs.
     */
    charge(args: Billing_ChargeInput): Promise<Billing_ChargeOutput>;
    /** Find a customer by id or by email. */
    find_customer(args: Billing_FindCustomerInput): Promise<Billing_FindCustomerOutput>;
    /** Base object plus variants, OpenAPI nullable on a $ref. */
    refund(args: Billing_RefundInput): Promise<unknown>;
  };
};

// Signatures:
// tools.billing.charge({amount: number, currency: string, method: {…}, customer?: Party & {…}, reference?: string, note?: string | null, metadata?: Record<string, string> | null, …}): Promise<{…}>
// tools.billing.find_customer({id?: string, email?: string}): Promise<{id: string, name?: string} | null>
// tools.billing.refund({charge_id: string, reason?: Reason} & {…}): Promise<unknown>
