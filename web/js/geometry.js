// Where a map's cells are on the canvas, for every map kind (shared docs/DESIGN.md, "Every map a
// game has"): square cells, the four hex layouts (the formulas of libs/grid/include/pathlab/
// grid/hex.hpp: centres in hex units, neighbours 1 apart), and layered maps, whose floors the
// API stacks in one grid (floor l's row y is grid row l * layer_pitch + y, with rows of wall
// between floors) and the page draws side by side, one unit of gap apart. Cells are grid cells
// [x, y] (y the stacked row) everywhere in the page; toWire/fromWire turn them into the API's
// [x, y, layer] on layered maps.

/** sqrt(3) / 2: the distance between hex rows (pointy) or columns (flat). */
const ROW = Math.sqrt(3) / 2;
/** The distance from a hex's centre to its corners: 1 / sqrt(3). */
export const CORNER = 1 / Math.sqrt(3);
/** Gap between floors drawn side by side, in cells (square) or hex units. */
const FLOOR_GAP = 1;

export const isHex = (layout) => !!layout && layout !== 'square';
const pointy = (layout) => layout === 'pointy-odd-r' || layout === 'pointy-even-r' || !isHex(layout);

/** Whether the shifted row (pointy) or column (flat) of (x, y) is drawn half a hex further. */
function shifted(layout, x, y) {
  switch (layout) {
    case 'pointy-even-r': return (y & 1) === 0;
    case 'flat-odd-q': return (x & 1) !== 0;
    case 'flat-even-q': return (x & 1) === 0;
    default: return (y & 1) !== 0;
  }
}
/** hex::centre: the centre of (x, y) in hex units. */
export function hexCentre(layout, x, y) {
  const half = shifted(layout, x, y) ? 0.5 : 0;
  return pointy(layout) ? [x + 0.5 + half, CORNER + y * ROW] : [CORNER + x * ROW, y + 0.5 + half];
}
/** hex::corners: the six corners of (x, y)'s hex in hex units. */
export function hexCorners(layout, x, y) {
  const [cx, cy] = hexCentre(layout, x, y), start = pointy(layout) ? 30 : 0;
  return Array.from({ length: 6 }, (_, i) => {
    const a = ((start + 60 * i) * Math.PI) / 180;
    return [cx + CORNER * Math.cos(a), cy + CORNER * Math.sin(a)];
  });
}
/** hex::extent: the bounding box of a w x h hex map from (0, 0), in hex units. */
export function hexExtent(layout, w, h) {
  if (w <= 0 || h <= 0) return [0, 0];
  if (pointy(layout)) return [w + (h > 1 || shifted(layout, 0, 0) ? 0.5 : 0), 2 * CORNER + (h - 1) * ROW];
  return [2 * CORNER + (w - 1) * ROW, h + (w > 1 || shifted(layout, 0, 0) ? 0.5 : 0)];
}

// Axial coordinates and the six moves in the order of a hex flow field's codes 0..5.
function toAxial(layout, x, y) {
  switch (layout) {
    case 'pointy-even-r': return [x - (y + (y & 1)) / 2, y];
    case 'flat-odd-q': return [x, y - (x - (x & 1)) / 2];
    case 'flat-even-q': return [x, y - (x + (x & 1)) / 2];
    default: return [x - (y - (y & 1)) / 2, y];
  }
}
function fromAxial(layout, q, r) {
  switch (layout) {
    case 'pointy-even-r': return [q + (r + (r & 1)) / 2, r];
    case 'flat-odd-q': return [q, r + (q - (q & 1)) / 2];
    case 'flat-even-q': return [q, r + (q + (q & 1)) / 2];
    default: return [q + (r - (r & 1)) / 2, r];
  }
}
const AXIAL_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
/** The cell move `dir` (0..5) leads to from (x, y) on a hex layout. */
export function hexStep(layout, x, y, dir) {
  const [q, r] = toAxial(layout, x, y), [dq, dr] = AXIAL_DIRS[dir];
  return fromAxial(layout, q + dq, r + dr);
}

/**
 * The geometry of a map answered by GET /api/maps/NAME (its width, height, layout, layers,
 * layer_height, layer_pitch): functions of the grid cell [x, y] in drawing units (multiply by
 * the panel's pixels per unit).
 */
export function makeGeometry(m) {
  const layout = m.layout || 'square', hex = isHex(layout);
  const layers = m.layers || 1, layerHeight = m.layer_height || m.height;
  const pitch = m.layer_pitch || m.height;
  const [fw, fh] = hex ? hexExtent(layout, m.width, layerHeight) : [m.width, layerHeight];
  const stride = fw + FLOOR_GAP;
  const floorOf = (y) => (layers > 1 ? Math.floor(y / pitch) : 0);
  const localY = (y) => (layers > 1 ? y - floorOf(y) * pitch : y);
  const g = {
    layout, hex, layers, layerHeight, pitch,
    /** A plain square single-floor map: drawn exactly as before, a cell a square. */
    simple: !hex && layers === 1,
    width: layers * fw + (layers - 1) * FLOOR_GAP,
    height: fh,
    floorOf, localY,
    /** Whether grid row y is one of the wall rows between floors (never drawn). */
    between: (y) => layers > 1 && localY(y) >= layerHeight,
    /** Whether [x, y] is a cell of some floor. */
    inside: (x, y) => x >= 0 && y >= 0 && x < m.width && y < m.height && !(layers > 1 && localY(y) >= layerHeight),
    /** The cell's centre. */
    centre(x, y) {
      const ox = floorOf(y) * stride;
      if (hex) {
        const [cx, cy] = hexCentre(layout, x, localY(y));
        return [ox + cx, cy];
      }
      return [ox + x + 0.5, localY(y) + 0.5];
    },
    /** The cell's outline: 6 corners (hex) or 4 (square), in drawing order. */
    outline(x, y) {
      const ox = floorOf(y) * stride;
      if (hex) return hexCorners(layout, x, localY(y)).map(([px, py]) => [ox + px, py]);
      const ly = localY(y);
      return [[ox + x, ly], [ox + x + 1, ly], [ox + x + 1, ly + 1], [ox + x, ly + 1]];
    },
    /** The two ends of side 'n', 'e', 's' or 'w' of square cell [x, y], or on hex maps of the
     * edge toward its neighbour in direction '0'..'5' (hex::edge). */
    edge(x, y, side) {
      const ox = floorOf(y) * stride, ly = localY(y);
      if (hex) {
        const [ax, ay] = hexCentre(layout, x, ly);
        const [nx, ny] = hexStep(layout, x, ly, Number(side));
        const [bx, by] = hexCentre(layout, nx, ny);
        const mx = ox + (ax + bx) / 2, my = (ay + by) / 2;
        const ux = (-(by - ay) * CORNER) / 2, uy = ((bx - ax) * CORNER) / 2;
        return [[mx - ux, my - uy], [mx + ux, my + uy]];
      }
      const x0 = ox + x, x1 = ox + x + 1, y0 = ly, y1 = ly + 1;
      return { n: [[x0, y0], [x1, y0]], e: [[x1, y0], [x1, y1]], s: [[x0, y1], [x1, y1]], w: [[x0, y0], [x0, y1]] }[side];
    },
    /** The centre of floor l's label area (above nothing: the floor's top-left corner). */
    floorOrigin: (l) => [l * stride, 0],
    floorSize: [fw, fh],
    /** The grid cell under a point in drawing units, or null. */
    pick(u, v) {
      const f = Math.floor(u / stride);
      if (f < 0 || f >= layers || v < 0) return null;
      const lu = u - f * stride;
      if (lu > fw || v > fh) return null;
      let best = null;
      if (!hex) {
        const x = Math.floor(lu), y = Math.floor(v);
        if (x < 0 || x >= m.width || y >= layerHeight) return null;
        return [x, f * pitch + y];
      }
      // The nearest hex centre among the cells around the estimate.
      const py = pointy(layout);
      const ex = py ? Math.round(lu - 0.5) : Math.round((lu - CORNER) / ROW);
      const ey = py ? Math.round((v - CORNER) / ROW) : Math.round(v - 0.5);
      let bestD = Infinity;
      for (let y = ey - 2; y <= ey + 2; y++) {
        for (let x = ex - 2; x <= ex + 2; x++) {
          if (x < 0 || y < 0 || x >= m.width || y >= layerHeight) continue;
          const [cx, cy] = hexCentre(layout, x, y), d = Math.hypot(cx - lu, cy - v);
          if (d < bestD) { bestD = d; best = [x, f * pitch + y]; }
        }
      }
      return bestD <= CORNER ? best : null;
    },
    /** The cell a flow field's direction code leads to on the grid (not links), or null. */
    step(x, y, code) {
      if (hex) return code >= 0 && code < 6 ? hexStep(layout, x, y, code) : null;
      const D = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
      return code >= 0 && code < 8 ? [x + D[code][0], y + D[code][1]] : null;
    },
    /** The direction code of "take the link here" in a flow field: 8 square, 6 hex. */
    linkCode: hex ? 6 : 8,
    /** [x, y] (grid) -> the API's cell: [x, y, layer] on a layered map. */
    toWire: (c) => (layers > 1 ? [c[0], localY(c[1]), floorOf(c[1])] : [c[0], c[1]]),
    /** The API's cell ([x, y] or [x, y, layer]) -> [x, y] (grid). */
    fromWire: (c) => (layers > 1 && c.length >= 3 ? [c[0], c[2] * pitch + c[1]] : [c[0], c[1]]),
    /** Cell text as the CLI writes it: L:X,Y on layered maps. */
    label: (c) => (layers > 1 ? `${floorOf(c[1])}:${c[0]},${localY(c[1])}` : `${c[0]},${c[1]}`),
  };
  return g;
}
