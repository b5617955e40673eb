½
"serve*2.21.0W

aFoox

bBara

cFoob
.
xPlaceholder*
shape:*
dtype0*Q
serving_default>

x
x:0
y
c:0tensorflow/serving/predict