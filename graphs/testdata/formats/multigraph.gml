graph [
  multigraph 1
  label "1"
  node [
    id 0
    label "0"
    charge 0.0
    size 1
  ]
  node [
    id 1
    label "1"
    charge 1.0
    size 2
  ]
  node [
    id 2
    label "2"
    charge 2.0
    size 3
  ]
  edge [
    source 0
    target 1
    key 0
    weight 1.0
  ]
  edge [
    source 0
    target 1
    key 1
    weight 2.0
  ]
  edge [
    source 1
    target 2
    key 0
  ]
]
