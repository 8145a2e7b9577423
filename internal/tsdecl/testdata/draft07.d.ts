interface Geo_RouteInput {
  from: Geo_Route_Point;
  to: Geo_Route_Point;
  via?: Geo_Route_Waypoint[];
  /** @minItems 2 */
  bbox?: [number, number, number?, number?, ...string[]];
  profile?: "car" | "bike" | "foot";
  avoid?: ("tolls" | "ferries" | "highways")[];
  headers?: Record<string, string>;
  meta?: { trace?: boolean } & Record<string, string>;
  extra?: { note?: string; [key: string]: string };
  x_headers?: {
    /** Keys matching `^x-` or `^n-`. */
    [key: string]: string | number;
  };
  options?: Record<string, unknown>;
  closed?: {};
  grid?: (number | null)[][];
  ref_missing?: unknown;
  ref_remote?: unknown;
}

/** @minItems 2 */
type Geo_Route_Point = [number, number];

interface Geo_Route_Waypoint {
  at: Geo_Route_Point;
  stop_minutes?: number;
}

interface Geo_RouteOutput {
  distance_m?: number;
  legs?: { from?: Geo_Route_Pt; to?: Geo_Route_Pt }[];
}

/**
 * @minItems 2
 * @maxItems 2
 */
type Geo_Route_Pt = number[];

declare const tools: {
  geo: {
    /** Plan a route between points. */
    route(args: Geo_RouteInput): Promise<Geo_RouteOutput>;
  };
};

// Signatures:
// tools.geo.route({from: Point, to: Point, via?: Waypoint[], bbox?: [number, number, number?, number?, ...string[]], profile?: "car" | "bike" | "foot", …}): Promise<{…}>
