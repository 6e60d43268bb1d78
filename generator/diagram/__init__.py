"""Maps drawn as diagrams: an octilinear layout engine (CP-SAT) for any network cut.

:mod:`.model` cuts a network (stations projected to km, edges with their lines, each line's
turns); :mod:`.layout` solves the octilinear layout under a deterministic budget; :mod:`.check`
validates a layout from its geometry alone.
"""

from .check import problems
from .layout import Layout, Spec, lns, solve
from .model import Cut, Edge, from_network

__all__ = ["Cut", "Edge", "Layout", "Spec", "from_network", "lns", "problems", "solve"]
