"""The kernel manager of the rulebook's servers (``rulebook lab``, and the base of ``rulebook app``'s).

The servers run with ``JUPYTER_NO_CONFIG`` so that they read no user config (rulebook.serve); a kernel inheriting it
would make a temporary config folder of its own at every start and never remove it. Kernels are started without it,
with the server's own empty config folder (removed when the server stops)."""

from __future__ import annotations

import os
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class KernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, whose kernels do not inherit the server's ``JUPYTER_NO_CONFIG``."""

    # jupyter_client types the base as its synchronous wrapper (run_sync), but an async manager's is a coroutine:
    # jupyter_server's own MappingKernelManager overrides it with the same ignore
    async def start_kernel(  # type: ignore[override]
        self, *, kernel_id: str | None = None, path: Any = None, **kwargs: Any
    ) -> str:
        env = dict(kwargs.get("env") or os.environ)
        env.pop("JUPYTER_NO_CONFIG", None)
        kwargs["env"] = env
        return await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
