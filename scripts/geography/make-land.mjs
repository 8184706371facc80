// Helper of make-land.sh (run it through that script, which installs the
// pinned packages this imports): cuts Natural Earth's 1:50m land, as
// world-atlas ships it, to the box the bundled games are played in, simplifies
// it and writes the JSON form of schema/geography.fbs (root table Geography).
//
//   node make-land.mjs LAND_50M_JSON OUT_JSON
//
// Steps, in this order:
//   1. TopoJSON -> GeoJSON (topojson-client feature()); rings that cross the
//      antimeridian unwrapped (see unwrapRing).
//   2. Douglas-Peucker on every ring, in degrees, tolerance TOLERANCE; rings
//      left with fewer than 3 points are dropped.
//   3. Intersection with the box (polygon-clipping). Besides the cut, this
//      repairs whatever the simplification made invalid (a ring crossing
//      itself or a neighbour is resolved by the non-zero rule), and its output
//      has no repeated or collinear points, outer rings counter-clockwise and
//      holes clockwise (x = longitude east, y = latitude north).
//   4. Rings whose area is under MIN_AREA square degrees are dropped (a
//      polygon whose outer ring goes takes its holes with it).
//   5. Coordinates rounded to ten-thousandths of a degree; a ring that rounding
//      spoils (repeated points, a spike, a crossing, a flipped orientation)
//      stops the script rather than being written.
//   6. Canonical order: every ring starts at its smallest (lon, lat) point,
//      holes sorted, polygons sorted by their outer ring's first point.
// Everything is deterministic, so a rerun writes the same bytes.

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import polygonClipping from 'polygon-clipping';

const require = createRequire(import.meta.url);
const WORLD_ATLAS_VERSION = require('world-atlas/package.json').version;

// The box, in degrees; written to the file in ten-thousandths.
const WEST = -100, SOUTH = 0, EAST = 62, NORTH = 76;
// Douglas-Peucker tolerance, degrees (about 3.3 km north-south).
const TOLERANCE = 0.03;
// Smallest ring kept, square degrees (Malta, simplified, is about 0.02).
const MIN_AREA = 0.005;
const SCALE = 10000;

const [, , inPath, outPath] = process.argv;
if (!inPath || !outPath) {
  console.error('usage: node make-land.mjs LAND_50M_JSON OUT_JSON');
  process.exit(2);
}

// ---- 1. GeoJSON polygons ----------------------------------------------------
const topology = JSON.parse(readFileSync(inPath, 'utf8'));
const land = feature(topology, topology.objects.land);
const geometries = land.type === 'FeatureCollection' ? land.features.map((f) => f.geometry) : [land.geometry];
const sourcePolygons = [];
for (const g of geometries) {
  if (g.type === 'Polygon') sourcePolygons.push(g.coordinates);
  else if (g.type === 'MultiPolygon') sourcePolygons.push(...g.coordinates);
  else throw new Error(`unexpected geometry ${g.type}`);
}

function bbox(ring) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of ring) {
    if (x < x0) x0 = x; if (x > x1) x1 = x;
    if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

function touchesBox(ring) {
  const [x0, y0, x1, y1] = bbox(ring);
  return x1 > WEST && x0 < EAST && y1 > SOUTH && y0 < NORTH;
}

// ---- 2. Douglas-Peucker -----------------------------------------------------
function segDist2(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  const ex = a[0] + t * dx - p[0], ey = a[1] + t * dy - p[1];
  return ex * ex + ey * ey;
}

// Marks the points of pts[first..last] to keep (iterative, no deep recursion).
function dpMark(pts, first, last, tol2, keep) {
  const stack = [[first, last]];
  while (stack.length) {
    const [i, j] = stack.pop();
    let best = -1, bestD = tol2;
    for (let k = i + 1; k < j; k++) {
      const d = segDist2(pts[k], pts[i], pts[j]);
      if (d > bestD) { bestD = d; best = k; }
    }
    if (best >= 0) {
      keep[best] = true;
      stack.push([i, best], [best, j]);
    }
  }
}

function simplifyRing(ring, tol) {
  // GeoJSON rings repeat the first point at the end; work on the open ring.
  let pts = ring.slice();
  const a = pts[0], z = pts[pts.length - 1];
  if (a[0] === z[0] && a[1] === z[1]) pts.pop();
  if (pts.length < 3) return null;
  // Anchors: the first point and the one farthest from it.
  let far = 0, farD = -1;
  for (let k = 1; k < pts.length; k++) {
    const dx = pts[k][0] - pts[0][0], dy = pts[k][1] - pts[0][1];
    const d = dx * dx + dy * dy;
    if (d > farD) { farD = d; far = k; }
  }
  const closed = pts.concat([pts[0]]);
  const keep = new Array(closed.length).fill(false);
  keep[0] = keep[far] = keep[closed.length - 1] = true;
  const tol2 = tol * tol;
  dpMark(closed, 0, far, tol2, keep);
  dpMark(closed, far, closed.length - 1, tol2, keep);
  const out = [];
  for (let k = 0; k < closed.length - 1; k++) if (keep[k]) out.push(closed[k]);
  if (out.length < 3) return null;
  out.push(out[0]);
  return out;
}

// A few rings cross the antimeridian: in world-atlas, Eurasia's coast jumps
// from Chukotka at -180 to 179.9 and back, and drawn flat those jumps are
// edges right across the box (at 65 and 69 degrees north). Each ring is
// unwrapped so that no edge is longer than 180 degrees in longitude, and moved
// by 360 degrees if that left it west of -180 (Eurasia then ends near 190
// east, Chukotka outside the box). A ring that does not close when unwrapped
// goes round a pole (Antarctica) and is left out: it is nowhere near the box.
function unwrapRing(ring) {
  const out = [];
  let offset = 0;
  for (let k = 0; k < ring.length; k++) {
    if (k > 0) {
      const dx = ring[k][0] - ring[k - 1][0];
      if (dx > 180) offset -= 360;
      else if (dx < -180) offset += 360;
    }
    out.push([ring[k][0] + offset, ring[k][1]]);
  }
  if (offset !== 0) return null;
  if (bbox(out)[0] < -180) for (const p of out) p[0] += 360;
  return out;
}

const simplified = [];
for (const source of sourcePolygons) {
  const poly = source.map(unwrapRing);
  if (!poly[0]) continue;
  if (!touchesBox(poly[0])) continue;
  const outer = simplifyRing(poly[0], TOLERANCE);
  if (!outer) continue;
  const holes = poly.slice(1).filter((r) => r).map((r) => simplifyRing(r, TOLERANCE)).filter((r) => r);
  simplified.push([outer, ...holes]);
}

// ---- 3. Cut to the box ------------------------------------------------------
const box = [[[WEST, SOUTH], [EAST, SOUTH], [EAST, NORTH], [WEST, NORTH], [WEST, SOUTH]]];
const clipped = polygonClipping.intersection(simplified, box);

// ---- 4. Drop the small rings -------------------------------------------------
// Shoelace area of an open or closed ring; positive = counter-clockwise.
function signedArea(ring) {
  let s = 0;
  for (let k = 0, n = ring.length; k < n; k++) {
    const p = ring[k], q = ring[(k + 1) % n];
    s += p[0] * q[1] - q[0] * p[1];
  }
  return s / 2;
}

const kept = [];
for (const poly of clipped) {
  if (Math.abs(signedArea(poly[0])) < MIN_AREA) continue;
  kept.push([poly[0], ...poly.slice(1).filter((r) => Math.abs(signedArea(r)) >= MIN_AREA)]);
}

// ---- 5. Round, and refuse what rounding spoils ---------------------------------
function cross(o, a, b) {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

function onSegment(p, a, b) {
  return Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) &&
         Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1]);
}

// Whether segments ab and cd share any point (integer coordinates: exact).
function segmentsMeet(a, b, c, d) {
  const d1 = Math.sign(cross(c, d, a)), d2 = Math.sign(cross(c, d, b));
  const d3 = Math.sign(cross(a, b, c)), d4 = Math.sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 === 0 && onSegment(a, c, d)) || (d2 === 0 && onSegment(b, c, d)) ||
         (d3 === 0 && onSegment(c, a, b)) || (d4 === 0 && onSegment(d, a, b));
}

// All pairs of edges of the given open rings that touch, other than the
// shared endpoint of consecutive edges of one ring. Edges are bucketed on a
// grid so that the big continental ring is not checked quadratically.
function crossings(rings) {
  const edges = [];
  rings.forEach((r, ri) => {
    for (let k = 0; k < r.length; k++) edges.push([ri, k, r[k], r[(k + 1) % r.length], r.length]);
  });
  const CELL = 5000; // half a degree
  const grid = new Map();
  const bad = [];
  edges.forEach((e, ei) => {
    const [, , a, b] = e;
    const cx0 = Math.floor(Math.min(a[0], b[0]) / CELL), cx1 = Math.floor(Math.max(a[0], b[0]) / CELL);
    const cy0 = Math.floor(Math.min(a[1], b[1]) / CELL), cy1 = Math.floor(Math.max(a[1], b[1]) / CELL);
    const seen = new Set();
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) {
        const key = cx * 100000 + cy;
        const cell = grid.get(key);
        if (cell) {
          for (const oi of cell) {
            if (seen.has(oi)) continue;
            seen.add(oi);
            const o = edges[oi];
            if (o[0] === e[0]) {
              const n = e[4], diff = Math.abs(o[1] - e[1]);
              if (diff === 1 || diff === n - 1) {
                // Neighbours share one endpoint; they must not overlap beyond it.
                const [p, q] = o[1] === (e[1] + 1) % n ? [e, o] : [o, e];
                // p's end is q's start; bad if collinear and folding back.
                const c = cross(p[2], p[3], q[3]);
                const dot = (p[3][0] - p[2][0]) * (q[3][0] - q[2][0]) + (p[3][1] - p[2][1]) * (q[3][1] - q[2][1]);
                if (c === 0 && dot <= 0) bad.push([o, e]);
                continue;
              }
            }
            if (segmentsMeet(a, b, o[2], o[3])) bad.push([o, e]);
          }
          cell.push(ei);
        } else {
          grid.set(key, [ei]);
        }
      }
    }
  });
  return bad;
}

function roundRing(ring) {
  const out = [];
  for (const [x, y] of ring) {
    const p = [Math.round(x * SCALE), Math.round(y * SCALE)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  // Closed in GeoJSON: drop the repeat of the first point.
  while (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) out.pop();
  // Remove points that rounding made collinear with their neighbours.
  let changed = true;
  while (changed && out.length >= 3) {
    changed = false;
    for (let k = 0; k < out.length && out.length >= 3; k++) {
      const n = out.length;
      const prev = out[(k + n - 1) % n], p = out[k], next = out[(k + 1) % n];
      if (cross(prev, p, next) === 0) { out.splice(k, 1); changed = true; k--; }
    }
  }
  return out;
}

const W = WEST * SCALE, S = SOUTH * SCALE, E = EAST * SCALE, N = NORTH * SCALE;
const rounded = [];
for (const poly of kept) {
  const rings = poly.map(roundRing);
  rings.forEach((r, k) => {
    if (r.length < 3) throw new Error(`ring with ${r.length} points after rounding`);
    for (const [x, y] of r) if (x < W || x > E || y < S || y > N) throw new Error(`point ${x},${y} outside the box`);
    const a = signedArea(r);
    if (k === 0 ? a <= 0 : a >= 0) throw new Error(`ring ${k} wound the wrong way after rounding near ${r[0]}`);
  });
  rounded.push(rings);
}
// Crossings within and between polygons (rings may touch at a point only where
// polygon-clipping left them touching; any shared point is reported here, so
// the count must be zero).
{
  const all = rounded.flat();
  const bad = crossings(all);
  if (bad.length) {
    for (const [o, e] of bad.slice(0, 10)) console.error('edges meet:', JSON.stringify(o.slice(2, 4)), JSON.stringify(e.slice(2, 4)));
    throw new Error(`${bad.length} pairs of edges meet after rounding`);
  }
}

// ---- 6. Canonical order and output ---------------------------------------------
function lexLess(p, q) { return p[0] !== q[0] ? p[0] - q[0] : p[1] - q[1]; }
function canonical(ring) {
  let m = 0;
  for (let k = 1; k < ring.length; k++) if (lexLess(ring[k], ring[m]) < 0) m = k;
  return ring.slice(m).concat(ring.slice(0, m));
}
const polygons = rounded.map((rings) => {
  const outer = canonical(rings[0]);
  const holes = rings.slice(1).map(canonical).sort((r, q) => lexLess(r[0], q[0]));
  return [outer, ...holes];
});
polygons.sort((p, q) => lexLess(p[0][0], q[0][0]));

let points = 0;
const lines = polygons.map((rings) => {
  const rs = rings.map((r) => {
    points += r.length;
    return `{"points":[${r.map((p) => `${p[0]},${p[1]}`).join(',')}]}`;
  });
  return `{"rings":[${rs.join(',')}]}`;
});

const source = `Natural Earth 1:50m land (naturalearthdata.com, public domain), as packaged by ` +
  `world-atlas ${WORLD_ATLAS_VERSION} (land-50m.json); cut to the box west ${WEST}, south ${SOUTH}, ` +
  `east ${EAST}, north ${NORTH} degrees; simplified (Douglas-Peucker, tolerance ${TOLERANCE} degree); ` +
  `rings under ${MIN_AREA} square degree dropped. Written by scripts/geography/make-land.sh.`;

const text = '{\n' +
  `"source": ${JSON.stringify(source)},\n` +
  `"west": ${W}, "south": ${S}, "east": ${E}, "north": ${N},\n` +
  '"polygons": [\n' + lines.join(',\n') + '\n]\n}\n';
writeFileSync(outPath, text);
console.error(`make-land: ${polygons.length} polygons, ${polygons.reduce((s, p) => s + p.length, 0)} rings, ` +
  `${points} points, ${text.length} bytes`);
