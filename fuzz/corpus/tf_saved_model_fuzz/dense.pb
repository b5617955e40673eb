¸

"serve*2.21.0Œ
7
kernelVarHandleOp*
shape
:*
dtype0
1
biasVarHandleOp*
shape:*
dtype0
—
StatefulPartitionedCallStatefulPartitionedCallserving_default_inputskernelbias*
fR
__inference_forward_7*
Tin
2*
Tout
2
P
serving_default_inputsPlaceholder*
dtype0*
shape:ÿÿÿÿÿÿÿÿÿ±
®
z
__inference_forward_7

inputs"
matmul_readvariableop_resource#
biasadd_readvariableop_resource
identityT
MatMul/ReadVariableOpReadVariableOpmatmul_readvariableop_resource*
dtype0@
MatMulMatMulinputsMatMul/ReadVariableOp:value:0*
T0V
BiasAdd/ReadVariableOpReadVariableOpbiasadd_readvariableop_resource*
dtype0M
BiasAddBiasAddMatMul:product:0BiasAdd/ReadVariableOp:value:0*
T0'
ReluReluBiasAdd:output:0*
T0=
NoOpNoOp^MatMul/ReadVariableOp^BiasAdd/ReadVariableOp8
IdentityIdentityRelu:activations:0^NoOp*
T0"
deadNoSuchTensorFlowOpinputs"
identityIdentity:output:02
NoOpNoOp*–
serving_default‚
9
inputs/
serving_default_inputs:0ÿÿÿÿÿÿÿÿÿ)
output_0
StatefulPartitionedCall:0tensorflow/serving/predict:}
.

kernel
bias"
_generic_user_object
:2kernel
:2bias
__inference_forward_7