#include "textflag.h"

// Offsets into expConsts (32 bytes per constant, repeated on four lanes).
#define LOG2E 0
#define LN2HI 32
#define LN2LO 64
#define HI 96
#define INF 128
#define BIAS 160
#define C13 192
#define LO 640
#define SHIFT 672
#define MINNORMAL 704
#define ABSMASK 736

// EXPCORE sets Y5 = exp(Y0) on four lanes, with Y10 = −708, Y11 = 1.5·2⁵², Y12 = 709 and
// AX = &expConsts (Y2–Y4, Y6 scratch): x = k·ln2 + r with k = round(x·log2 e); e^r by a
// degree-13 Taylor polynomial (|r| ≤ ln2/2); 2^k built in the exponent bits. Below −708 the
// lane is 0, above 709 +Inf; NaN propagates (max/min return their second operand when one is
// NaN, and x is that operand).
#define EXPCORE \
	VMAXPD Y0, Y10, Y2 \
	VMINPD Y2, Y12, Y2 \
	VMOVAPD Y11, Y3 \
	VFMADD231PD LOG2E(AX), Y2, Y3 \
	VSUBPD Y11, Y3, Y4 \
	VFNMADD231PD LN2HI(AX), Y4, Y2 \
	VFNMADD231PD LN2LO(AX), Y4, Y2 \
	VMOVUPD C13(AX), Y5 \
	VFMADD213PD 224(AX), Y2, Y5 \
	VFMADD213PD 256(AX), Y2, Y5 \
	VFMADD213PD 288(AX), Y2, Y5 \
	VFMADD213PD 320(AX), Y2, Y5 \
	VFMADD213PD 352(AX), Y2, Y5 \
	VFMADD213PD 384(AX), Y2, Y5 \
	VFMADD213PD 416(AX), Y2, Y5 \
	VFMADD213PD 448(AX), Y2, Y5 \
	VFMADD213PD 480(AX), Y2, Y5 \
	VFMADD213PD 512(AX), Y2, Y5 \
	VFMADD213PD 544(AX), Y2, Y5 \
	VFMADD213PD 576(AX), Y2, Y5 \
	VFMADD213PD 608(AX), Y2, Y5 \
	VPADDQ BIAS(AX), Y3, Y3 \
	VPSLLQ $52, Y3, Y3 \
	VMULPD Y3, Y5, Y5 \
	VCMPPD $0x0E, Y12, Y0, Y6 \
	VBLENDVPD Y6, INF(AX), Y5, Y5 \
	VCMPPD $1, Y10, Y0, Y6 \
	VANDNPD Y5, Y6, Y5

// EXPBODY sets Y5 = exp((Y8 − Y1)·Y9).
#define EXPBODY \
	VSUBPD Y1, Y8, Y0 \
	VMULPD Y9, Y0, Y0 \
	EXPCORE

// FLUSH zeroes the lanes of Y5 whose magnitude is below the smallest normal number (Y6, Y7
// scratch). NaN compares false and stays.
#define FLUSH \
	VANDPD ABSMASK(AX), Y5, Y7 \
	VCMPPD $1, MINNORMAL(AX), Y7, Y6 \
	VANDNPD Y5, Y6, Y5

// func expScaledAsm(n int, dst, c, t *float64, shift, scale float64, consts *float64, mask *int64)
TEXT ·expScaledAsm(SB), NOSPLIT, $0-64
	MOVQ         n+0(FP), CX
	MOVQ         dst+8(FP), DI
	MOVQ         c+16(FP), SI
	MOVQ         t+24(FP), DX
	VBROADCASTSD shift+32(FP), Y8
	VBROADCASTSD scale+40(FP), Y9
	MOVQ         consts+48(FP), AX
	MOVQ         mask+56(FP), R8
	VMOVUPD      LO(AX), Y10
	VMOVUPD      SHIFT(AX), Y11
	VMOVUPD      HI(AX), Y12
	MOVQ         CX, BX
	SHRQ         $2, CX
	ANDQ         $3, BX
	TESTQ        CX, CX
	JE           etail

eloop:
	VMOVUPD (SI), Y1
	EXPBODY
	VMULPD  (DX), Y5, Y5
	FLUSH
	VMOVUPD Y5, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNE     eloop

etail:
	TESTQ      BX, BX
	JE         edone
	VMOVDQU    (R8), Y13
	VMASKMOVPD (SI), Y13, Y1
	EXPBODY
	VMASKMOVPD (DX), Y13, Y7
	VMULPD     Y7, Y5, Y5
	FLUSH
	VMASKMOVPD Y5, Y13, (DI)

edone:
	VZEROUPPER
	RET

// func expAddAsm(n int, dst, x, y *float64, a float64, consts *float64, mask *int64)
// dst[j] = exp(a + x[j] + y[j]); y == nil means y = 0. Y8 = a.
TEXT ·expAddAsm(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         dst+8(FP), DI
	MOVQ         x+16(FP), SI
	MOVQ         y+24(FP), DX
	VBROADCASTSD a+32(FP), Y8
	MOVQ         consts+40(FP), AX
	MOVQ         mask+48(FP), R8
	VMOVUPD      LO(AX), Y10
	VMOVUPD      SHIFT(AX), Y11
	VMOVUPD      HI(AX), Y12
	MOVQ         CX, BX
	SHRQ         $2, CX
	ANDQ         $3, BX
	TESTQ        DX, DX
	JE           xonly
	TESTQ        CX, CX
	JE           ytail

yloop:
	VADDPD  (SI), Y8, Y0
	VADDPD  (DX), Y0, Y0
	EXPCORE
	VMOVUPD Y5, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNE     yloop

ytail:
	TESTQ      BX, BX
	JE         xdone
	VMOVDQU    (R8), Y13
	VMASKMOVPD (SI), Y13, Y1
	VMASKMOVPD (DX), Y13, Y7
	VADDPD     Y1, Y8, Y0
	VADDPD     Y7, Y0, Y0
	EXPCORE
	VMASKMOVPD Y5, Y13, (DI)
	JMP        xdone

xonly:
	TESTQ CX, CX
	JE    xtail

xloop:
	VADDPD  (SI), Y8, Y0
	EXPCORE
	VMOVUPD Y5, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNE     xloop

xtail:
	TESTQ      BX, BX
	JE         xdone
	VMOVDQU    (R8), Y13
	VMASKMOVPD (SI), Y13, Y1
	VADDPD     Y1, Y8, Y0
	EXPCORE
	VMASKMOVPD Y5, Y13, (DI)

xdone:
	VZEROUPPER
	RET
