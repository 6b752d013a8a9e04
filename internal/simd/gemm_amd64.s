#include "textflag.h"

// Register use (4-row kernels):
//   CX  k (loop counter)      SI  &A[0,p]           R8  lda in bytes   R9  3·lda in bytes
//   DX  &B[p,0]               R10 ldb in bytes      DI  &C[0,0]        R11 ldc in bytes
//   Y0–Y7  the 4×8 block of C (row r in Y(2r), Y(2r+1))
//   Y8, Y9  row p of B          Y10–Y13  A[r,p] broadcast          Y14, Y15  column masks

#define ZERO8 \
	VXORPD Y0, Y0, Y0 \
	VXORPD Y1, Y1, Y1 \
	VXORPD Y2, Y2, Y2 \
	VXORPD Y3, Y3, Y3 \
	VXORPD Y4, Y4, Y4 \
	VXORPD Y5, Y5, Y5 \
	VXORPD Y6, Y6, Y6 \
	VXORPD Y7, Y7, Y7

// FMA4 multiplies row p of B (Y8, Y9) by the four A[r,p] and accumulates.
#define FMA4 \
	VBROADCASTSD (SI), Y10 \
	VFMADD231PD Y8, Y10, Y0 \
	VFMADD231PD Y9, Y10, Y1 \
	VBROADCASTSD (SI)(R8*1), Y11 \
	VFMADD231PD Y8, Y11, Y2 \
	VFMADD231PD Y9, Y11, Y3 \
	VBROADCASTSD (SI)(R8*2), Y12 \
	VFMADD231PD Y8, Y12, Y4 \
	VFMADD231PD Y9, Y12, Y5 \
	VBROADCASTSD (SI)(R9*1), Y13 \
	VFMADD231PD Y8, Y13, Y6 \
	VFMADD231PD Y9, Y13, Y7 \
	ADDQ $8, SI \
	ADDQ R10, DX

#define LOAD4ARGS \
	MOVQ k+0(FP), CX \
	MOVQ a+8(FP), SI \
	MOVQ lda+16(FP), R8 \
	SHLQ $3, R8 \
	LEAQ (R8)(R8*2), R9 \
	MOVQ b+24(FP), DX \
	MOVQ ldb+32(FP), R10 \
	SHLQ $3, R10 \
	MOVQ c+40(FP), DI \
	MOVQ ldc+48(FP), R11 \
	SHLQ $3, R11

// ADDROW sets the 8 entries at DI to alpha (Y13)·(lo, hi) plus themselves and moves DI to the
// next row.
#define ADDROW(lo, hi) \
	VFMADD213PD (DI), Y13, lo \
	VMOVUPD lo, (DI) \
	VFMADD213PD 32(DI), Y13, hi \
	VMOVUPD hi, 32(DI) \
	ADDQ R11, DI

// ADDROWM is ADDROW for the lanes of the masks Y14, Y15 (Y8, Y9 as scratch).
#define ADDROWM(lo, hi) \
	VMASKMOVPD (DI), Y14, Y8 \
	VFMADD213PD Y8, Y13, lo \
	VMASKMOVPD lo, Y14, (DI) \
	VMASKMOVPD 32(DI), Y15, Y9 \
	VFMADD213PD Y9, Y13, hi \
	VMASKMOVPD hi, Y15, 32(DI) \
	ADDQ R11, DI

// func kern4x8(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64)
TEXT ·kern4x8(SB), NOSPLIT, $0-64
	LOAD4ARGS
	ZERO8
	TESTQ CX, CX
	JE    store4

loop4:
	VMOVUPD (DX), Y8
	VMOVUPD 32(DX), Y9
	FMA4
	DECQ CX
	JNE  loop4

store4:
	VBROADCASTSD alpha+56(FP), Y13
	ADDROW(Y0, Y1)
	ADDROW(Y2, Y3)
	ADDROW(Y4, Y5)
	ADDROW(Y6, Y7)
	VZEROUPPER
	RET

// func kern4x8m(k int, a *float64, lda int, b *float64, ldb int, c *float64, ldc int, alpha float64, mask *int64)
TEXT ·kern4x8m(SB), NOSPLIT, $0-72
	LOAD4ARGS
	MOVQ    mask+64(FP), AX
	VMOVDQU (AX), Y14
	VMOVDQU 32(AX), Y15
	ZERO8
	TESTQ   CX, CX
	JE      store4m

loop4m:
	VMASKMOVPD (DX), Y14, Y8
	VMASKMOVPD 32(DX), Y15, Y9
	FMA4
	DECQ       CX
	JNE        loop4m

store4m:
	VBROADCASTSD alpha+56(FP), Y13
	ADDROWM(Y0, Y1)
	ADDROWM(Y2, Y3)
	ADDROWM(Y4, Y5)
	ADDROWM(Y6, Y7)
	VZEROUPPER
	RET

// One-row kernels: Y0, Y1 and Y2, Y3 accumulate alternate p (two dependency chains each).

// func kern1x8(k int, a *float64, b *float64, ldb int, c *float64, alpha float64)
TEXT ·kern1x8(SB), NOSPLIT, $0-48
	MOVQ   k+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   b+16(FP), DX
	MOVQ   ldb+24(FP), R10
	SHLQ   $3, R10
	MOVQ   c+32(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	TESTQ  CX, CX
	JE     store1

loop1:
	VBROADCASTSD (SI), Y10
	VFMADD231PD  (DX), Y10, Y0
	VFMADD231PD  32(DX), Y10, Y1
	ADDQ         $8, SI
	ADDQ         R10, DX
	DECQ         CX
	JE           store1
	VBROADCASTSD (SI), Y11
	VFMADD231PD  (DX), Y11, Y2
	VFMADD231PD  32(DX), Y11, Y3
	ADDQ         $8, SI
	ADDQ         R10, DX
	DECQ         CX
	JNE          loop1

store1:
	VBROADCASTSD alpha+40(FP), Y13
	VADDPD       Y2, Y0, Y0
	VADDPD       Y3, Y1, Y1
	VFMADD213PD  (DI), Y13, Y0
	VMOVUPD      Y0, (DI)
	VFMADD213PD  32(DI), Y13, Y1
	VMOVUPD      Y1, 32(DI)
	VZEROUPPER
	RET

// func kern1x8m(k int, a *float64, b *float64, ldb int, c *float64, alpha float64, mask *int64)
TEXT ·kern1x8m(SB), NOSPLIT, $0-56
	MOVQ    k+0(FP), CX
	MOVQ    a+8(FP), SI
	MOVQ    b+16(FP), DX
	MOVQ    ldb+24(FP), R10
	SHLQ    $3, R10
	MOVQ    c+32(FP), DI
	MOVQ    mask+48(FP), AX
	VMOVDQU (AX), Y14
	VMOVDQU 32(AX), Y15
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	TESTQ   CX, CX
	JE      store1m

loop1m:
	VMASKMOVPD   (DX), Y14, Y8
	VMASKMOVPD   32(DX), Y15, Y9
	VBROADCASTSD (SI), Y10
	VFMADD231PD  Y8, Y10, Y0
	VFMADD231PD  Y9, Y10, Y1
	ADDQ         $8, SI
	ADDQ         R10, DX
	DECQ         CX
	JNE          loop1m

store1m:
	VBROADCASTSD alpha+40(FP), Y13
	VMASKMOVPD   (DI), Y14, Y8
	VFMADD213PD  Y8, Y13, Y0
	VMASKMOVPD   Y0, Y14, (DI)
	VMASKMOVPD   32(DI), Y15, Y9
	VFMADD213PD  Y9, Y13, Y1
	VMASKMOVPD   Y1, Y15, 32(DI)
	VZEROUPPER
	RET
