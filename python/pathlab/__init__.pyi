# Type stubs of the pathlab package (the module is compiled: editors read these).
from typing import Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

# A cell: (x, y), or (x, y, layer) on a layered map (y within the floor; (x, y) is floor 0).
Point = Tuple[int, int] | Tuple[int, int, int] | Sequence[int]
# A point in map units: (x, y) floats; the centre of cell (x, y) is (x + 0.5, y + 0.5).
MapPoint = Tuple[float, float] | Sequence[float]
Layout = str  # "square", "pointy-odd-r", "pointy-even-r", "flat-odd-q" or "flat-even-q"
Side = str  # "n", "e", "s" or "w"
ClassCost = Optional[Mapping[str, Optional[float]]]

class ParseError(ValueError): ...

class Grid:
    def __init__(
        self,
        walls: npt.ArrayLike,
        *,
        costs: Optional[npt.ArrayLike] = None,
        classes: Optional[npt.ArrayLike] = None,
        layout: Layout = "square",
    ) -> None: ...
    @staticmethod
    def layered(width: int, height: int, layers: int, *, layout: Layout = "square") -> "Grid": ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def layers(self) -> int: ...
    @property
    def layer_height(self) -> int: ...
    @property
    def layout(self) -> Layout: ...
    @layout.setter
    def layout(self, value: Layout) -> None: ...
    @property
    def start(self) -> Optional[Tuple[int, ...]]: ...
    @property
    def goal(self) -> Optional[Tuple[int, ...]]: ...
    def walls(self) -> npt.NDArray[np.bool_]: ...
    def costs(self) -> npt.NDArray[np.float64]: ...
    def classes(self) -> npt.NDArray[np.uint8]: ...
    def edit(self, text: str) -> None: ...
    def set_walls(
        self,
        x: int,
        y: int,
        x2: Optional[int] = None,
        y2: Optional[int] = None,
        *,
        blocked: bool = True,
        layer: Optional[int] = None,
    ) -> None: ...
    def set_terrain(
        self,
        x: int,
        y: int,
        cost: float,
        x2: Optional[int] = None,
        y2: Optional[int] = None,
        *,
        layer: Optional[int] = None,
    ) -> None: ...
    def set_class(
        self,
        x: int,
        y: int,
        cls: str,
        x2: Optional[int] = None,
        y2: Optional[int] = None,
        *,
        layer: Optional[int] = None,
    ) -> None: ...
    def set_edge_wall(
        self,
        x: int,
        y: int,
        side: Side,
        blocked: bool = True,
        *,
        x2: Optional[int] = None,
        y2: Optional[int] = None,
        layer: Optional[int] = None,
    ) -> None: ...
    def edge_wall(self, x: int, y: int, side: Side, *, layer: Optional[int] = None) -> bool: ...
    def edge_walls(self) -> list[Tuple[int | str, ...]]: ...
    def add_link(
        self, from_: Point, to: Point, cost: float = 1.0, oneway: bool = False
    ) -> None: ...
    @property
    def links(self) -> list[dict]: ...
    def remove_links(self, from_: Point, to: Point) -> int: ...
    def clear_links(self) -> None: ...

class Trace:
    names: list[str]
    event: npt.NDArray[np.uint8]
    side: npt.NDArray[np.uint8]
    cell: npt.NDArray[np.int32]
    other: npt.NDArray[np.int32]
    g: npt.NDArray[np.float64]
    f: npt.NDArray[np.float64]
    def expanded(self) -> npt.NDArray[np.int32]: ...
    def __len__(self) -> int: ...

class Result:
    status: str
    cost: float
    expanded: int
    generated: int
    time_us: float
    path: npt.NDArray[np.int32]
    points: npt.NDArray[np.float64]
    note: str
    answered_by: str
    fallback: str
    partial: Optional[dict]
    trace: Optional[Trace]
    smoothed: Optional[dict]

class Pathfinder:
    def __init__(
        self,
        grid: Grid,
        *,
        algorithm: str = "astar",
        diagonal: str = "no-corner-cut",
        heuristic: Optional[str] = None,
        weight: Optional[float] = None,
        radius: float = 0.0,
        class_cost: ClassCost = None,
        partial: bool = False,
        node_limit: int = 10_000_000,
    ) -> None: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def preparation_state(self) -> str: ...
    def find(
        self, start: Point, goal: Point, *, trace: bool = False, smooth: Optional[str] = None
    ) -> Result: ...
    def find_points(self, start: MapPoint, goal: MapPoint, *, trace: bool = False) -> Result: ...
    def find_corners(self, start: Point, goal: Point, *, trace: bool = False) -> Result: ...
    def reach(
        self, start: Point, budget: float
    ) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]: ...

class FlowField:
    distance: npt.NDArray[np.float64]
    direction: npt.NDArray[np.int8]
    goals: list[Tuple[int, ...]]
    time_us: float
    @property
    def stale(self) -> bool: ...
    def next(self, cell: Point) -> Optional[Tuple[int, ...]]: ...

class LinkBoard:
    def __init__(self, text: str) -> None: ...
    @staticmethod
    def load(path: str) -> "LinkBoard": ...
    @staticmethod
    def generate(width: int, height: int, *, kinds: int, seed: int = 1) -> "LinkBoard": ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def tiles(self) -> int: ...
    @property
    def deadlocked(self) -> bool: ...
    def cells(self) -> npt.NDArray[np.uint8]: ...
    def connect(self, a: Point, b: Point) -> Optional[npt.NDArray[np.int32]]: ...
    def hint(self) -> Optional[Tuple[Tuple[int, int], Tuple[int, int]]]: ...
    def moves(self) -> npt.NDArray[np.int32]: ...
    def play(self, a: Point, b: Point, *, gravity: str = "none") -> bool: ...
    def shuffle(self, seed: int = 1) -> bool: ...
    def solve(self, *, gravity: str = "none", node_limit: int = 20_000_000) -> dict: ...

class World:
    def __init__(self, path: str, *, planner: Optional[str] = None) -> None: ...
    @staticmethod
    def on_grid(
        grid: Grid,
        starts: npt.ArrayLike,
        goals: npt.ArrayLike,
        *,
        radius: float = 0.3,
        max_speed: float = 2.0,
        planner: str = "hybrid",
        dt: float = 0.05,
        time_limit: float = 60.0,
    ) -> "World": ...
    def step(self, ticks: int = 1) -> None: ...
    def run(self) -> None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def time(self) -> float: ...
    @property
    def ticks(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...
    @property
    def velocities(self) -> npt.NDArray[np.float64]: ...
    @property
    def arrived(self) -> npt.NDArray[np.bool_]: ...
    def metrics(self) -> dict[str, np.ndarray]: ...
    def set_goal(self, indices: npt.ArrayLike, goal: Tuple[float, float]) -> None: ...
    def tick_us(self) -> list[float]: ...
    def __len__(self) -> int: ...

def find(
    grid: Grid,
    start: Point,
    goal: Point,
    *,
    algorithm: str = "astar",
    diagonal: str = "no-corner-cut",
    heuristic: Optional[str] = None,
    weight: Optional[float] = None,
    radius: float = 0.0,
    class_cost: ClassCost = None,
    partial: bool = False,
    node_limit: int = 10_000_000,
    trace: bool = False,
    smooth: Optional[str] = None,
) -> Result: ...
def find_points(
    grid: Grid,
    start: MapPoint,
    goal: MapPoint,
    *,
    algorithm: str = "anyangle-exact",
    diagonal: str = "no-corner-cut",
    radius: float = 0.0,
    class_cost: ClassCost = None,
    node_limit: int = 10_000_000,
    trace: bool = False,
) -> Result: ...
def find_corners(
    grid: Grid,
    start: Point,
    goal: Point,
    *,
    algorithm: str = "anyangle-exact",
    diagonal: str = "no-corner-cut",
    radius: float = 0.0,
    class_cost: ClassCost = None,
    node_limit: int = 10_000_000,
    trace: bool = False,
) -> Result: ...
def reach(
    grid: Grid,
    start: Point,
    budget: float,
    *,
    diagonal: str = "no-corner-cut",
    radius: float = 0.0,
    class_cost: ClassCost = None,
    node_limit: int = 10_000_000,
) -> Tuple[npt.NDArray[np.int32], npt.NDArray[np.float64]]: ...
def find_many(
    grid: Grid,
    starts: npt.ArrayLike,
    goals: npt.ArrayLike,
    *,
    algorithm: str = "jps",
    threads: int = 0,
    diagonal: str = "no-corner-cut",
    heuristic: Optional[str] = None,
    weight: Optional[float] = None,
    radius: float = 0.0,
    class_cost: ClassCost = None,
    node_limit: int = 10_000_000,
) -> npt.NDArray[np.float64]: ...
def flow_field(
    grid: Grid,
    goals: Sequence[Point],
    *,
    diagonal: str = "no-corner-cut",
    radius: float = 0.0,
    class_cost: ClassCost = None,
) -> FlowField: ...
def load_map(
    path: str,
    *,
    format: str = "auto",
    threshold: int = 128,
    cell: int = 1,
    layout: Optional[Layout] = None,
) -> Grid: ...
def load_scenarios(path: str) -> dict: ...
def bench(
    scenarios: Sequence[str],
    *,
    algorithms: Sequence[str] = ("astar",),
    threads: int = 1,
    max_queries: int = 0,
    diagonal: str = "no-corner-cut",
    smooth: Optional[str] = None,
) -> list[dict]: ...
def algorithms() -> list[str]: ...
