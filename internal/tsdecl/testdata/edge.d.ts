interface DeepInput {
  l1?: {
    l2?: {
      l3?: {
        l4?: {
          l5?: {
            l6?: {
              l7?: {
                l8?: { l9?: { l10?: { l11?: { l12?: { l13?: unknown } } } } };
              };
            };
          };
        };
      };
    };
  };
}

interface OddInput {
  yes: unknown;
  no?: never;
  empty?: unknown;
  any_type?: unknown;
  not_string?: unknown;
  conditional?: unknown;
  multi?: { a?: string } | number[] | null;
  inferred_object?: { a?: boolean };
  inferred_array?: string[];
  untyped_array?: unknown[];
  no_items?: [];
  anyof_with_any?: unknown;
  allof_never?: never;
  union_of_unions?: "a" | "b" | "c" | number;
  array_of_union?: (string | number)[];
  nested_nullable_array?: { k: string }[] | null;
  recursive_ref_2019?: OddInput;
  dynamic?: unknown;
  big_enum?: "a01" | "a02" | "a03" | "a04" | "a05" | "a06" | "a07" | "a08" | "a09" | "a10";
  /** @default {"x":[1,2],"y":"z"} */
  default_obj?: Record<string, number>;
  /** @default "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna ali… */
  long_default?: string;
  /**
   * @minimum 0
   * @exclusiveMinimum
   */
  exclusive_draft4?: number;
  /** @example "openapi-example" */
  ro?: string;
  only_required_in_list?: { must: unknown };
  not_listed: unknown;
}

/** @minLength 1 */
type ScalarArgInput = string;

interface WideSignatureInput {
  alpha_option?: string;
  beta_option?: string;
  gamma_option?: string;
  delta_option?: string;
  epsilon_option?: string;
  zeta_option?: string;
  eta_option?: string;
  theta_option?: string;
  iota_option?: string;
  kappa_required: string;
  lambda_required: number;
}

interface WideSignatureOutput {
  first_result_field?: string;
  second_result_field?: string;
  third?: { x?: number };
}

declare const tools: {
  /** Boolean schemas. */
  anything(args?: Record<string, unknown>): Promise<never>;
  deep(args?: DeepInput): Promise<unknown>;
  /** Constructs that degrade. */
  odd(args: OddInput): Promise<unknown>;
  open_object(args?: Record<string, unknown>): Promise<unknown>;
  /** Takes a bare string. */
  scalar_arg(args: ScalarArgInput): Promise<string | number>;
  /** Many properties: the signature shows the required ones first. */
  wide_signature(args: WideSignatureInput): Promise<WideSignatureOutput>;
};

// Signatures:
// tools.anything(args?: Record<string, unknown>): Promise<never>
// tools.open_object(args?: Record<string, unknown>): Promise<unknown>
// tools.scalar_arg(string): Promise<string | number>
// tools.odd({yes: unknown, not_listed: unknown, no?: never, empty?: unknown, any_type?: unknown, not_string?: unknown, conditional?: unknown, multi?: {…} | number[] | null, …}): Promise<unknown>
// tools.deep(args?: {l1?: {…}}): Promise<unknown>
// tools.wide_signature({kappa_required: string, lambda_required: number, alpha_option?: string, beta_option?: string, gamma_option?: string, delta_option?: string, …}): Promise<{…}>
