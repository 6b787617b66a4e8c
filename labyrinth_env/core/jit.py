"""``njit`` for labyrinth_env kernels: numba's, with two changes that cut compile time.

* **One specialization per kind of argument, not per value or width.** Numba types a
  constant argument (``emit(s, EV_MOVE, ...)``, ``set_decision(s, D_MAIN, p)``) as a literal
  and compiles the callee again for every constant, and again for every integer width a
  caller happens to hold (an ``int8`` field, an ``int32`` counter, an ``int64`` index).
  Calls between these kernels are typed with plain argument types instead: literals lose
  their value and signed integers are widened to ``int64`` (the caller's value is
  converted, as for any call). Unsigned integers keep their type: ``~`` and unary ``-``
  differ between widths, and mixing ``uint64`` with signed integers gives floats. The
  Labyrinthos AEC path compiled 331 overloads of 175 functions (``emit`` alone 53 times,
  once per event code); it now compiles 217 of 177.
* **No C callback wrapper.** Numba builds, for every compiled function, a wrapper that lets
  it be passed around as a C function pointer (``cfunc``); these kernels never are (a
  kernel passed as an argument is compiled into its caller), and for a state record of a
  hundred fields that wrapper costs about as much as the function itself.

A third rule is the kernels' own, not this module's: **a kernel function called from one or
two places in its kernel, with a large call tree below it, is ``inline="always"``** (numba
inlines its IR into its callers). Numba compiles every other function as a library of its
own, links into it the optimised code of everything it calls, and optimises and emits the
whole again; a function high in the call graph compiled on its own pays for its whole tree
once more (the tree's code goes through LLVM once per ancestor library). Inlined, it is
typed once per call site and its tree is optimised with its caller only; but numba's
inlining has a cost of its own (the callee's IR is rebuilt and typed at every call site),
so it is kept only where it measured a gain: in both Paths of Destiny editions and Labyrinx
(the AEC path's compile, CPU, side by side with the code before: 2011 83 -> 69 s, 3e 61 ->
57, Labyrinx 25 -> 23); in Labyrinthos and Team Edition it cost more than it saved. The
bound templates inline the kernel's top functions (``step``, ``init``, ``legal_mask``,
``observe``) into the AEC entry points the same way (``core.templates.bind``). Leaves are
not inlined: their trees are small.

Everything else is numba's own dispatcher: ``cache=True`` caches (``core.cache`` locates
it), ``parallel=True``/``prange`` work, ``NUMBA_DISABLE_JIT=1`` returns the Python
function, and the functions are called from Python as usual.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba.core import config, types
from numba.core.datamodel import models
from numba.core.registry import CPUDispatcher
from numba.extending import register_model


def plain(t: types.Type) -> types.Type:
    """The argument type a kernel is compiled for: no literal, signed integers as int64."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    return t


class KernelType(types.Dispatcher):
    """Numba's type of a kernel function: calls from compiled code are resolved for
    ``plain`` argument types."""

    def get_call_type(self, context: Any, args: tuple, kws: dict) -> Any:
        return super().get_call_type(context, tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()})


register_model(KernelType)(models.OpaqueModel)  # as numba's own Dispatcher type


class KernelDispatcher(CPUDispatcher):
    """A CPU dispatcher whose numba type is ``KernelType``."""

    @property
    def _numba_type_(self) -> KernelType:
        return KernelType(self)


DEFAULTS = {"nopython": True, "no_cfunc_wrapper": True}


def njit(*args: Any, cache: bool = False, **options: Any) -> Any:
    """``@njit``, ``@njit(cache=True)``, ``@njit(cache=True, parallel=True)``: see the module
    docstring. Signatures (eager compilation) are not supported: kernels compile lazily."""
    if args and callable(args[0]) and len(args) == 1:
        return njit(cache=cache, **options)(args[0])
    if args:
        raise TypeError("labyrinth_env's njit takes no signatures: kernels compile for the types they are called with")
    targetoptions = {**DEFAULTS, **options}

    def wrap(fn: Callable[..., Any]) -> Any:
        if config.DISABLE_JIT:
            return fn
        dispatcher = KernelDispatcher(py_func=fn, locals={}, targetoptions=targetoptions)
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return wrap
