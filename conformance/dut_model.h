/* dut_model.h — the model as an implementation under test (dut_model.c). */
#ifndef TT_DUT_MODEL_H
#define TT_DUT_MODEL_H
#include "ttdut.h"
const ttdut_ops *ttdut_model_ops(void);
#endif
