#include "textflag.h"

// AVX-512 kernel: an 8×8 block of C in Z0–Z7 (one row each). Per step p: row p of B in Z8
// (lanes outside the mask K1 read as 0), then Z_r += A[r,p]·Z8 with A[r,p] broadcast from memory
// inside the FMA. Rows 0–3 are addressed from SI, rows 4–7 from BX = SI + 4·lda.

#define FMA8 \
	VFMADD231PD.BCST (SI), Z8, Z0 \
	VFMADD231PD.BCST (SI)(R8*1), Z8, Z1 \
	VFMADD231PD.BCST (SI)(R8*2), Z8, Z2 \
	VFMADD231PD.BCST (SI)(R9*1), Z8, Z3 \
	VFMADD231PD.BCST (BX), Z8, Z4 \
	VFMADD231PD.BCST (BX)(R8*1), Z8, Z5 \
	VFMADD231PD.BCST (BX)(R8*2), Z8, Z6 \
	VFMADD231PD.BCST (BX)(R9*1), Z8, Z7 \
	ADDQ $8, SI \
	ADDQ $8, BX \
	ADDQ R10, DX

// STOREROW sets the masked lanes of the row at DI to alpha (Z13)·acc plus themselves.
#define STOREROW(acc) \
	VMOVUPD.Z (DI), K1, Z9 \
	VFMADD213PD Z9, Z13, acc \
	VMOVUPD acc, K1, (DI) \
	ADDQ R11, DI

// func kern8x8z(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64, mask uint64)
TEXT ·kern8x8z(SB), NOSPLIT, $0-72
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   lda+16(FP), R8
	SHLQ   $3, R8
	LEAQ   (R8)(R8*2), R9
	LEAQ   (SI)(R8*4), BX
	MOVQ   b+24(FP), DX
	MOVQ   ldb+32(FP), R10
	SHLQ   $3, R10
	MOVQ   c+40(FP), DI
	MOVQ   ldc+48(FP), R11
	SHLQ   $3, R11
	MOVQ   mask+64(FP), AX
	KMOVW  AX, K1
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	TESTQ  CX, CX
	JE     store8

loop8:
	VMOVUPD.Z (DX), K1, Z8
	FMA8
	DECQ      CX
	JNE       loop8

store8:
	VBROADCASTSD alpha+56(FP), Z13
	STOREROW(Z0)
	STOREROW(Z1)
	STOREROW(Z2)
	STOREROW(Z3)
	STOREROW(Z4)
	STOREROW(Z5)
	STOREROW(Z6)
	STOREROW(Z7)
	VZEROUPPER
	RET
