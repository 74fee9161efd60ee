#!/usr/bin/env python3
"""Writes the small Tiled maps (.tmx, .tsx) of tests/io/tiled_test.cpp into this folder.

The .tmj files beside them are the Tiled editor's own exports of these maps (see
export_with_tiled.sh): run that after this script whenever a map changes. The maps are written
out here only because base64 and compressed layer data cannot be typed by hand.
"""
import base64
import gzip
import os
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# One tileset for most maps: the kinds of cell a tile can say it is.
CELLS_TSX_BODY = """  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="1"><properties><property name="class" value="wall"/></properties></tile>
  <tile id="2"><properties><property name="class" value="water"/></properties></tile>
  <tile id="3"><properties><property name="class" value="S"/><property name="cost" type="float" value="2"/></properties></tile>
  <tile id="4"><properties><property name="walkable" type="bool" value="false"/></properties></tile>
  <tile id="5"><properties><property name="class" value="trees"/></properties></tile>
  <tile id="6"><properties><property name="cost" type="float" value="3.5"/></properties></tile>
  <tile id="7"><properties><property name="class" value="x"/></properties></tile>
"""

# 6 x 5 cells (gids: tile id + 1; 0 is an empty cell, a wall).
BASE = [
    [1, 1, 2, 1, 7, 1],
    [1, 4, 1, 1, 1, 8],
    [3, 1, 5, 1, 6, 1],
    [1, 1, 1, 0, 1, 1],
    [1, 7, 1, 1, 2, 1],
]


def cells_tileset(tw, th, firstgid=1):
    return (f' <tileset firstgid="{firstgid}" name="cells" tilewidth="{tw}" tileheight="{th}" '
            f'tilecount="8" columns="0">\n{CELLS_TSX_BODY} </tileset>\n')


def csv(rows):
    return "\n" + ",\n".join(",".join(str(g) for g in r) for r in rows) + "\n"


def packed(rows):
    return b"".join(struct.pack("<I", g) for r in rows for g in r)


def data(rows, encoding, compression=None):
    if encoding == "csv":
        return f'<data encoding="csv">{csv(rows)}</data>'
    raw = packed(rows)
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        raw = gzip.compress(raw, mtime=0)
    elif compression == "zstd":
        raw = subprocess.run(["zstd", "-q", "-c", "-19"], input=raw, capture_output=True,
                             check=True).stdout
    comp = f' compression="{compression}"' if compression else ""
    return f'<data encoding="base64"{comp}>\n   {base64.b64encode(raw).decode()}\n  </data>'


def header(w, h, tw, th, orientation="orthogonal", extra="", infinite=0):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.8" tiledversion="1.8.2" orientation="{orientation}" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="{tw}" '
            f'tileheight="{th}"{extra} infinite="{infinite}" nextlayerid="9" nextobjectid="20">\n')


def layer(lid, name, w, h, body, props=""):
    p = f"\n  <properties>\n{props}  </properties>" if props else ""
    return f' <layer id="{lid}" name="{name}" width="{w}" height="{h}">{p}\n  {body}\n </layer>\n'


def point(oid, name, x, y, props=""):
    p = f"\n   <properties>\n{props}   </properties>" if props else ""
    return f'  <object id="{oid}" name="{name}" x="{x:g}" y="{y:g}">{p}\n   <point/>\n  </object>\n'


def objects(lid, name, body, props=""):
    p = f"\n  <properties>\n{props}  </properties>" if props else ""
    return f' <objectgroup id="{lid}" name="{name}">{p}\n{body} </objectgroup>\n'


def prop(name, value, type_=None):
    t = f' type="{type_}"' if type_ else ""
    return f'   <property name="{name}"{t} value="{value}"/>\n'


def write(name, text):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        f.write(text)


def markers(start, goal):
    return objects(2, "markers", point(1, "start", *start) + point(2, "goal", *goal))


def square_map(name, encoding, compression=None, orientation="orthogonal", tw=32, th=32):
    # Objects: the centre of cell (0, 0) and (5, 4); isometric maps measure both axes in tile
    # heights.
    ux = th if orientation == "isometric" else tw
    m = header(6, 5, tw, th, orientation) + cells_tileset(tw, th)
    m += layer(1, "cells", 6, 5, data(BASE, encoding, compression))
    m += markers((0.5 * ux, 0.5 * th), (5.5 * ux, 4.5 * th)) + "</map>\n"
    write(name, m)


def hex_centre(x, y, axis, index, tw, th, side):
    even = index == "even"
    if axis == "y":
        shifted = ((y & 1) != 0) != even
        return x * tw + tw / 2 + (tw / 2 if shifted else 0), y * (th + side) / 2 + th / 2
    shifted = ((x & 1) != 0) != even
    return x * (tw + side) / 2 + tw / 2, y * th + th / 2 + (th / 2 if shifted else 0)


def hex_map(name, axis, index):
    tw, th, side = (28, 32, 16) if axis == "y" else (32, 28, 16)
    extra = f' hexsidelength="{side}" staggeraxis="{axis}" staggerindex="{index}"'
    m = header(6, 5, tw, th, "hexagonal", extra) + cells_tileset(tw, th)
    m += layer(1, "cells", 6, 5, data(BASE, "csv"))
    # Markers on cells of both parities: (1, 1) and (4, 3).
    m += markers(hex_centre(1, 1, axis, index, tw, th, side),
                 hex_centre(4, 3, axis, index, tw, th, side)) + "</map>\n"
    write(name, m)


def main():
    square_map("ortho_csv.tmx", "csv")
    square_map("ortho_base64.tmx", "base64")
    square_map("ortho_zlib.tmx", "base64", "zlib")
    square_map("ortho_gzip.tmx", "base64", "gzip")
    square_map("ortho_zstd.tmx", "base64", "zstd")
    square_map("isometric.tmx", "csv", orientation="isometric", tw=64, th=32)
    for axis in ("y", "x"):
        for index in ("odd", "even"):
            hex_map(f"hex_{'pointy' if axis == 'y' else 'flat'}_{index}.tmx", axis, index)

    # An external tileset (several tilesets, firstgid, flip flags).
    write("walls.tsx", '<?xml version="1.0" encoding="UTF-8"?>\n'
          '<tileset version="1.8" tiledversion="1.8.2" name="walls" tilewidth="32" '
          'tileheight="32" tilecount="8" columns="0">\n' + CELLS_TSX_BODY + '</tileset>\n')
    more = (' <tileset firstgid="20" name="more" tilewidth="32" tileheight="32" tilecount="2" '
            'columns="0">\n  <grid orientation="orthogonal" width="1" height="1"/>\n'
            '  <tile id="1"><properties><property name="class" value="swamp"/>'
            '</properties></tile>\n </tileset>\n')
    rows = [[1, 2, 21, 20], [0x80000002, 21 | 0x40000000, 3, 1], [1, 1, 1, 6]]
    m = header(4, 3, 32, 32) + ' <tileset firstgid="1" source="walls.tsx"/>\n' + more
    m += layer(1, "cells", 4, 3, data(rows, "csv")) + "</map>\n"
    write("external.tmx", m)

    # Floors, links, a group, markers on two floors.
    f0 = [[1, 1, 1, 1], [1, 2, 1, 1], [1, 1, 1, 1]]
    f1 = [[1, 1, 2, 1], [1, 1, 1, 1], [2, 2, 1, 1]]
    link = (prop("to_layer", 1, "int") + prop("to_x", 3, "int") + prop("to_y", 2, "int") +
            prop("cost", 2, "float"))
    down = (prop("to_layer", 0, "int") + prop("to_x", 0, "int") + prop("to_y", 2, "int") +
            prop("cost", 1.5, "float") + prop("oneway", "true", "bool"))
    m = header(4, 3, 32, 32) + cells_tileset(32, 32)
    m += layer(1, "ground floor", 4, 3, data(f0, "csv"), prop("floor", 0, "int"))
    m += objects(2, "ground objects", point(1, "start", 16, 16) + point(2, "stairs", 112, 80, link),
                 prop("floor", 0, "int"))
    m += ' <group id="3" name="upstairs">\n  <properties>\n' + prop("floor", 1, "int")
    m += '  </properties>\n'
    m += layer(4, "first floor", 4, 3, data(f1, "base64", "zlib"))
    m += objects(5, "first objects", point(3, "goal", 16, 16) + point(4, "drop", 48, 48, down))
    m += ' </group>\n</map>\n'
    write("floors.tmx", m)

    # Thin walls: tile properties and an object layer of a polyline and a polygon; an empty cell
    # read as ground.
    m = header(5, 4, 32, 32) + cells_tileset(32, 32)
    m += (' <tileset firstgid="20" name="fences" tilewidth="32" tileheight="32" tilecount="2" '
          'columns="0">\n  <grid orientation="orthogonal" width="1" height="1"/>\n'
          '  <tile id="0"><properties><property name="wall_e" type="bool" value="true"/>'
          '</properties></tile>\n'
          '  <tile id="1"><properties><property name="wall_n" type="bool" value="true"/>'
          '<property name="wall_s" type="bool" value="true"/></properties></tile>\n'
          ' </tileset>\n')
    rows = [[1, 20, 1, 1, 1], [1, 1, 0, 21, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 0]]
    m += layer(1, "cells", 5, 4, data(rows, "csv"), prop("empty", "ground"))
    walls = ('  <object id="1" name="fence" x="0" y="64">\n'
             '   <polyline points="0,0 64,0 64,64"/>\n  </object>\n'
             '  <object id="2" name="hut" x="128" y="0">\n'
             '   <polygon points="0,0 32,0 32,32 0,32"/>\n  </object>\n')
    m += objects(2, "walls", walls + point(3, "start", 16, 16) + point(4, "goal", 144, 112))
    m += "</map>\n"
    write("thin_walls.tmx", m)

    # Overlaid tile layers: the last non-empty tile wins.
    top = [[0, 0, 2, 0], [0, 6, 0, 0], [0, 0, 0, 1]]
    m = header(4, 3, 32, 32) + cells_tileset(32, 32)
    m += layer(1, "ground", 4, 3, data([[1] * 4] * 3, "csv"))
    m += layer(2, "details", 4, 3, data(top, "base64", "gzip")) + "</map>\n"
    write("overlay.tmx", m)

    # An infinite map: two chunks (Tiled's chunks are 16 x 16).
    left = [[1] * 16 for _ in range(16)]
    right = [[2 if (x + y) % 5 == 0 else 1 for x in range(16)] for y in range(16)]
    m = header(30, 20, 32, 32, infinite=1) + cells_tileset(32, 32)
    m += (' <layer id="1" name="cells" width="30" height="20">\n  <data encoding="csv">\n'
          f'   <chunk x="-16" y="0" width="16" height="16">{csv(left)}</chunk>\n'
          f'   <chunk x="0" y="0" width="16" height="16">{csv(right)}</chunk>\n'
          '  </data>\n </layer>\n')
    m += markers((-16 * 32 + 16, 16), (15 * 32 + 16, 15 * 32 + 16)) + "</map>\n"
    write("infinite.tmx", m)


if __name__ == "__main__":
    main()
