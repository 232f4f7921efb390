/* warplint minimal-CUDA mode: nothing from this header is declared. */
#pragma once
